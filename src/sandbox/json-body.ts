/**
 * A request body as JSON, refused the same way on every route that takes one: 415 unless the request says it is
 * JSON, 400 unless the bytes are UTF-8 JSON. The bytes are read by the caller, because the service's routes must
 * check credentials over them before anything is parsed.
 */
import { isJsonRequest, parseJsonBytes } from '../shared/body.js';
import { SandboxError } from './errors.js';

export function jsonBody(request: Request, bytes: Uint8Array): unknown {
  if (!isJsonRequest(request)) throw new SandboxError(415, 'Content-Type must be application/json');
  const json = parseJsonBytes(bytes);
  if (!json.ok) throw new SandboxError(400, 'the body is not valid UTF-8 JSON');
  return json.value;
}
