export { createSandbox, type Sandbox } from './create-sandbox.js';
export { DEMO_MERCHANT, type SandboxOptions, type SandboxMerchant } from './options.js';
export { SandboxError } from './errors.js';
export { NO_FAULTS, type Faults } from './faults.js';
export { ACTIONS, type SandboxAction } from './state-machine.js';
export { METHODS, type SandboxMethod, type SandboxRequisites } from './requisites.js';
export type { SandboxPayment, SandboxPaymentView, PaymentState, CallbackDelivery } from './payment-store.js';
