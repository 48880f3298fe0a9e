// @ts-check
/**
 * The React app's entry: registers the element (importing the package does that) and renders the app.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import 'payin-checkout';
import { App } from './app.jsx';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
