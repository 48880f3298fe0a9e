// The Preact typings for jsx-usage.tsx (see tsconfig.preact.json).
import type {} from 'payin-checkout/preact';
