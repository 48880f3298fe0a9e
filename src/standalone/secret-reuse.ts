/**
 * The standalone server's secrets are known to three parties: PAYIN_SECRET and PAYIN_TOKEN to the payment service
 * (which issued them), the order-token key and the webhook secret to the shop's backend, the console token to the
 * operators who type it in. One value given to settings of two parties makes either the holder of the other's: the
 * service, or a colleague with the console's token, could sign an order token, which is any price for any order. So
 * it is refused at start, as a short key is, naming the two settings and never the value.
 */
import { rotatedSecrets } from '../proxy/infrastructure/rotated-secrets.js';

type Party = 'the payment service' | 'your backend' | 'your operators';

/** The settings that hold secrets, in the order the problems name them, with who knows each and the values it holds. */
const SECRET_SETTINGS: ReadonlyArray<{ name: string; party: Party; values: (text: string) => string[] }> = [
  { name: 'PAYIN_SECRET', party: 'the payment service', values: rotatedSecrets },
  { name: 'PAYIN_TOKEN', party: 'the payment service', values: (text) => [text] },
  // Its key too: the base64 after whsec_, which someone copying it by hand may paste alone.
  {
    name: 'PAYIN_WEBHOOK_SECRET',
    party: 'your backend',
    values: (text) => rotatedSecrets(text).flatMap((secret) => [secret, secret.replace(/^whsec_/, '')]),
  },
  { name: 'PAYIN_ORDER_TOKEN_SECRET', party: 'your backend', values: rotatedSecrets },
  { name: 'PAYIN_CONSOLE_TOKEN', party: 'your operators', values: (text) => [text] },
];

/** One problem for each two settings, known to different parties, that `value` gives a secret in common. */
export function reusedSecretProblems(value: (name: string) => string | undefined): string[] {
  const held = SECRET_SETTINGS.map((setting) => ({
    ...setting,
    secrets: new Set(setting.values(value(setting.name) ?? '').filter(Boolean)),
  }));
  const problems: string[] = [];
  held.forEach((one, index) => {
    for (const other of held.slice(index + 1)) {
      if (one.party === other.party || ![...one.secrets].some((secret) => other.secrets.has(secret))) continue;
      problems.push(
        `${one.name} and ${other.name} hold the same secret, yet ${one.party} should know the one and ${other.party} the other: give ${other.name} its own (openssl rand -base64 24)`,
      );
    }
  });
  return problems;
}
