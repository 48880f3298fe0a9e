/**
 * `createSandbox(options)`: the payment service, embedded. It wires the parts together (store, lifecycle,
 * callback dispatcher, faults) and returns a Fetch handler that routes a request to the service's API
 * (/api/v2/*), the sandbox's control API (/sandbox/*) or the pages, and turns whatever they throw into an answer
 * in the one place that does so. The same handler carries methods for tests that run it in-process: read the
 * payments, act as the payer, set faults, wait for callbacks, close.
 */
import { API_SCOPE, CONTROL_SCOPE, type AnswerScope } from './answers.js';
import { answerSecretOf } from './auth.js';
import { CallbackDispatcher } from './callbacks.js';
import { phoneRoute } from './phone-page.js';
import { sbpMembersRoute } from './sbp-members.js';
import { pageRoute } from './console-page.js';
import { createApiRoutes } from './api-routes.js';
import { createControlRoutes } from './control-routes.js';
import { errorAnswer } from './errors.js';
import { NO_FAULTS, parseFaults, type Faults } from './faults.js';
import { createIdGenerator } from './ids.js';
import { PaymentLifecycle } from './lifecycle.js';
import { resolveOptions, type SandboxMerchant, type SandboxOptions } from './options.js';
import { PaymentStore, viewOf, type SandboxPaymentView } from './payment-store.js';
import type { SandboxAction } from './state-machine.js';

export interface Sandbox {
  /** The Fetch handler: serve it with `toNodeListener` / `serve` from `payin-checkout/node`, or call it directly. */
  (request: Request): Promise<Response>;
  /** The merchants it accepts (with their defaults filled in). */
  readonly merchants: readonly Required<SandboxMerchant>[];
  /** Every payment, newest first, each with its callback deliveries. */
  payments(): SandboxPaymentView[];
  payment(id: string): SandboxPaymentView | undefined;
  /** The payer's or operator's action, as POST /sandbox/payments/{id}/{action}; throws a SandboxError when refused. */
  act(id: string, action: SandboxAction, body?: { amount?: string | number }): SandboxPaymentView;
  faults(): Faults;
  /**
   * Gives the merchant a new secret, as the service does when a merchant asks for one: from now on its requests
   * must be signed with it, and its answers and callbacks (a retry of one sent before, too) are signed with it.
   * Its payments stay as they are. For testing how a shop rotates PAYIN_SECRET (docs/proxy.md).
   */
  rotateSecret(merchantId: string, secret: string): void;
  /** Replaces all faults (what is left out is off); throws a 400 SandboxError on a bad value. */
  setFaults(faults: Partial<Faults>): Faults;
  /** Resolves when no callback delivery attempt is on the wire; retries waiting on the clock do not count. */
  idle(): Promise<void>;
  /** Clears every timer and stops deliveries; the handler still answers, but nothing happens by itself any more. */
  close(): void;
}

export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const config = resolveOptions(options);
  const store = new PaymentStore(config.maxPayments);
  let faults: Faults = options.faults ? parseFaults(options.faults) : { ...NO_FAULTS };
  const callbacks = new CallbackDispatcher({
    clock: config.clock,
    fetch: config.fetch,
    attempts: config.callbackAttempts,
    retryDelayMs: config.callbackRetryDelayMs,
    timeoutMs: config.callbackTimeoutMs,
    reorderDelayMs: config.reorderDelayMs,
    faults: () => faults,
    // Read at each delivery, so that a callback after rotateSecret is signed with the new secret.
    secretOf: (merchantId) => {
      const merchant = config.merchants.find((m) => m.id === merchantId);
      return merchant ? answerSecretOf(merchant) : '';
    },
    onError: config.onError,
  });
  const lifecycle = new PaymentLifecycle({ config, store, ids: createIdGenerator(config.clock), callbacks });

  const payment = (id: string) => {
    const record = store.get(id);
    return record && viewOf(record, config.clock.now());
  };
  const methods = {
    merchants: config.merchants,
    payments: () => store.all().map((r) => viewOf(r, config.clock.now())),
    payment,
    act: (id: string, action: SandboxAction, body?: { amount?: unknown }) => viewOf(lifecycle.act(id, action, body), config.clock.now()),
    faults: () => ({ ...faults }),
    rotateSecret: (merchantId: string, secret: string) => {
      const merchant = config.merchants.find((m) => m.id === merchantId);
      if (!merchant) throw new TypeError(`rotateSecret: no merchant ${JSON.stringify(merchantId)}`);
      if (typeof secret !== 'string' || secret.trim() === '') throw new TypeError('rotateSecret: the new secret must not be empty');
      merchant.secret = secret;
    },
    setFaults: (next: Partial<Faults>) => {
      faults = parseFaults(next);
      return { ...faults };
    },
    idle: () => callbacks.idle(),
    close: () => {
      lifecycle.close();
      callbacks.close();
    },
  };

  const api = createApiRoutes({ config, store, lifecycle, faults: () => faults });
  const control = createControlRoutes(methods);

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const path = url.pathname;
    const isApi = path === '/api' || path.startsWith('/api/');
    const scope: AnswerScope = isApi ? API_SCOPE() : CONTROL_SCOPE();
    try {
      // With publicUrl set, the Host header never shapes a generated URL.
      if (isApi) return await api(request, path, config.publicUrl ?? url.origin, scope);
      if (path === '/sandbox' || path.startsWith('/sandbox/')) return await control(request, path);
      const members = request.method === 'GET' ? sbpMembersRoute(path, config.publicUrl ?? url.origin) : undefined;
      if (members) return members;
      const phone = phoneRoute(request, url, methods.payments);
      if (phone) return phone;
      return pageRoute(request, path, (id) => store.get(id) !== undefined);
    } catch (error) {
      return errorAnswer(error, scope, config.onError);
    }
  }

  return Object.assign(handle, methods) as Sandbox;
}
