// The React typings for jsx-usage.tsx (see tsconfig.react.json).
import type {} from 'payin-checkout/react';
