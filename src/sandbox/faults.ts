/**
 * The misbehaviour a shop's integration must survive, switched on at will (PUT /sandbox/faults, or
 * `sandbox.setFaults`). Each fault is chosen to be faithful AND safe to reason about:
 * - `errorRate` fails that share of API requests with a 5xx and an empty Signature header: half of them (500,
 *   503) BEFORE anything happens, like a service that refused the request, and half (502, 504) AFTER the request
 *   took effect, like a gateway that lost the service's answer: a create failed that way DID create a payment,
 *   because in production a 5xx never says which of the two it was;
 * - `htmlErrors` has those 5xx answered as a gateway in front of the service answers them (nginx, a load balancer):
 *   an HTML page and no Signature header at all, not the service's JSON refusal, so that a client that parses
 *   every answer as JSON, or looks for a Signature before the status, is caught here and not in production;
 * - `malformedRate` lets the request take effect and then garbles that share of successful answers (the body is
 *   cut short, so it is never valid JSON, but it is still signed): a create that "failed" this way DID create a
 *   payment, which is exactly the case a proxy must guard against with its own idempotency;
 * - `latencyMs` delays each API request on the sandbox's clock before it is handled;
 * - `statusAsArray` answers a single-id status request with a one-element array, as the spec allows;
 * - `duplicateCallbacks` sends every callback twice; `reorderCallbacks` holds back the callbacks of non-final
 *   states (see `reorderDelayMs`), so that a final state's callback overtakes them.
 * A PUT replaces all faults (what it leaves out is off); `{}` clears them.
 */
import { z } from 'zod';
import { describeIssues } from '../shared/provider-messages.js';
import { SandboxError } from './errors.js';

export interface Faults {
  /** Milliseconds each API request waits before it is handled (0..120000). */
  latencyMs: number;
  /** Share (0..1) of API requests failed with a 5xx: 500/503 before they take effect, 502/504 after. */
  errorRate: number;
  /** Answer errorRate's 5xx as a gateway does: an HTML page with no Signature header. */
  htmlErrors: boolean;
  /** Share (0..1) of successful API answers whose body is cut short (not valid JSON). */
  malformedRate: number;
  /** Answer single-id status requests with a one-element array. */
  statusAsArray: boolean;
  /** Send every callback twice. */
  duplicateCallbacks: boolean;
  /** Hold back non-final states' callbacks so that a later state's callback may overtake them. */
  reorderCallbacks: boolean;
}

export const NO_FAULTS: Readonly<Faults> = Object.freeze({
  latencyMs: 0,
  errorRate: 0,
  htmlErrors: false,
  malformedRate: 0,
  statusAsArray: false,
  duplicateCallbacks: false,
  reorderCallbacks: false,
});

const rate = (field: string) =>
  z
    .number({ error: `${field} must be a number from 0 to 1` })
    .min(0, `${field} must be at least 0`)
    .max(1, `${field} must be at most 1`);
const flag = (field: string) => z.boolean({ error: `${field} must be true or false` });

const faultsSchema = z.strictObject({
  latencyMs: z
    .number({ error: 'latencyMs must be a number of milliseconds' })
    .int('latencyMs must be a whole number of milliseconds')
    .min(0, 'latencyMs must be at least 0')
    .max(120_000, 'latencyMs must be at most 120000')
    .optional(),
  errorRate: rate('errorRate').optional(),
  htmlErrors: flag('htmlErrors').optional(),
  malformedRate: rate('malformedRate').optional(),
  statusAsArray: flag('statusAsArray').optional(),
  duplicateCallbacks: flag('duplicateCallbacks').optional(),
  reorderCallbacks: flag('reorderCallbacks').optional(),
});

/** The complete set of faults described by `value`; throws a 400 SandboxError naming the bad field. */
export function parseFaults(value: unknown): Faults {
  const parsed = faultsSchema.safeParse(value);
  if (!parsed.success) throw new SandboxError(400, `faults: ${describeIssues(parsed.error)}`);
  const out: Faults = { ...NO_FAULTS };
  for (const [key, v] of Object.entries(parsed.data)) if (v !== undefined) (out as unknown as Record<string, unknown>)[key] = v;
  return out;
}

/** An injected 5xx, and whether the request takes effect before it is answered. */
export interface InjectedError {
  status: 500 | 502 | 503 | 504;
  afterEffect: boolean;
}

/** One of the four injected errors, evenly: 500 and 503 before the request takes effect, 502 and 504 after. */
export function injectedError(random: () => number): InjectedError {
  const status = ([500, 503, 502, 504] as const)[Math.min(3, Math.floor(random() * 4))]!;
  return { status, afterEffect: status === 502 || status === 504 };
}

/** nginx's words for the statuses errorRate injects. */
const GATEWAY_TITLES: Record<InjectedError['status'], string> = {
  500: '500 Internal Server Error',
  502: '502 Bad Gateway',
  503: '503 Service Temporarily Unavailable',
  504: '504 Gateway Time-out',
};

/** The page a gateway in front of the service answers an injected error with (the htmlErrors fault), as nginx writes it. */
export function gatewayPage(status: InjectedError['status']): string {
  const title = GATEWAY_TITLES[status];
  return `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
}

/** True for `rate` of the calls. Draws from `random` only when the rate is set, so other draws stay put. */
export function roll(rate: number, random: () => number): boolean {
  return rate > 0 && random() < rate;
}

/** A proper prefix of a JSON object or array is never valid JSON. */
export function garble(text: string): string {
  return text.slice(0, Math.max(1, Math.floor(text.length / 2)));
}
