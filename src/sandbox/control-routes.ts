/**
 * The sandbox's own routes under /sandbox, which play the payer and the operator and switch faults on: they are
 * what the console and the hosted payment page call, and what a shop's tests may call over HTTP. They need no
 * credentials (the sandbox listens on loopback by default and holds no real money) and carry no Signature. What
 * a page of another site sends from the developer's browser is refused all the same (403): loopback is no wall for
 * a browser, and a POST without a body needs no preflight, so any page open beside the demo could pay, cancel or
 * fail its payments. Refusals have the same `{status: false, code, message}` shape as the service's routes.
 */
import { readBody } from '../shared/body.js';
import { fromAnotherSite } from '../shared/other-site.js';
import { jsonAnswer, CONTROL_SCOPE } from './answers.js';
import { MAX_BODY_BYTES, SandboxError } from './errors.js';
import { parseFaults, type Faults } from './faults.js';
import { jsonBody } from './json-body.js';
import type { SandboxPaymentView } from './payment-store.js';
import { ACTIONS, isAction, type SandboxAction } from './state-machine.js';

export interface ControlDeps {
  payments(): SandboxPaymentView[];
  payment(id: string): SandboxPaymentView | undefined;
  act(id: string, action: SandboxAction, body?: { amount?: unknown }): SandboxPaymentView;
  faults(): Faults;
  setFaults(faults: Faults): Faults;
}

function allow(request: Request, methods: string): void {
  const list = methods.split(', ');
  if (!list.includes(request.method) && !(request.method === 'HEAD' && list.includes('GET'))) {
    throw new SandboxError(405, `this route takes ${list.join(' or ')}, not ${request.method}`, { allow: methods });
  }
}

/** An optional JSON body: empty is `{}`; anything else must say it is JSON and be an object. */
async function optionalJson(request: Request): Promise<Record<string, unknown>> {
  const bytes = await readBody(request, MAX_BODY_BYTES);
  if (bytes.length === 0) return {};
  const json = jsonBody(request, bytes);
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new SandboxError(400, 'the body must be a JSON object');
  }
  return json as Record<string, unknown>;
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new SandboxError(404, `no sandbox route with ${JSON.stringify(segment)}`);
  }
}

export function createControlRoutes(deps: ControlDeps) {
  const ok = (body: unknown) => jsonAnswer(200, body, CONTROL_SCOPE());

  return async function control(request: Request, path: string): Promise<Response> {
    if (request.method !== 'GET' && request.method !== 'HEAD' && fromAnotherSite(request)) {
      throw new SandboxError(403, "refused: a page of another site may not act on the sandbox's payments or faults");
    }
    if (path === '/sandbox/payments') {
      allow(request, 'GET');
      return ok(deps.payments());
    }
    if (path === '/sandbox/faults') {
      allow(request, 'GET, PUT');
      if (request.method === 'PUT') {
        const bytes = await readBody(request, MAX_BODY_BYTES);
        return ok(deps.setFaults(parseFaults(jsonBody(request, bytes))));
      }
      return ok(deps.faults());
    }
    const match = /^\/sandbox\/payments\/([^/]+)(?:\/([^/]+))?$/.exec(path);
    if (!match) throw new SandboxError(404, `no sandbox route ${path}`);
    const id = decode(match[1]!);
    const action = match[2] === undefined ? undefined : decode(match[2]);
    if (action === undefined) {
      allow(request, 'GET');
      const view = deps.payment(id);
      if (!view) throw new SandboxError(404, `no payment with id ${JSON.stringify(id)}`);
      return ok(view);
    }
    allow(request, 'POST');
    if (!deps.payment(id)) throw new SandboxError(404, `no payment with id ${JSON.stringify(id)}`);
    if (!isAction(action)) {
      throw new SandboxError(400, `unknown action ${JSON.stringify(action)}; use one of ${Object.keys(ACTIONS).join(', ')}`);
    }
    const body = await optionalJson(request);
    const unknown = Object.keys(body).filter((key) => key !== 'amount');
    if (unknown.length)
      throw new SandboxError(400, `unknown field ${JSON.stringify(unknown[0])}: only "pay" takes a body, {"amount": "250.00"}`);
    return ok(deps.act(id, action, body));
  };
}
