/** The console page's script: registers <payin-console>. Built on its own (vite.console.config.ts), never into the shopper's script. */
import { PayinConsole } from './console-app.js';

if (!customElements.get('payin-console')) customElements.define('payin-console', PayinConsole);

declare global {
  interface HTMLElementTagNameMap {
    'payin-console': PayinConsole;
  }
}
