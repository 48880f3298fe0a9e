/**
 * A stand-in for the NSPK member list (`https://qr.nspk.ru/proxyapp/c2bmembers.json`), in its shape:
 * `{version, dictionary: [{bankName, logoURL, schema, package_name}]}`, with logos served by the sandbox itself,
 * so that the proxy's `/sbp-banks` route, the demo and every test work offline. The banks, their `schema` (the
 * app scheme on iOS) and `package_name` (the Android package) are the public members' own.
 */

const MEMBERS: readonly (readonly [bankName: string, schema: string, packageName: string])[] = [
  ['Сбербанк', 'bank100000000111', 'ru.sberbankmobile'],
  ['Т-Банк', 'bank100000000004', 'com.idamob.tinkoff.android'],
  ['ВТБ', 'bank100000000005', 'ru.vtb24.mobilebanking.android'],
  ['Альфа-Банк', 'bank100000000008', 'ru.alfabank.mobile.android'],
  ['Райффайзенбанк', 'bank100000000007', 'ru.raiffeisennews'],
  ['Газпромбанк', 'bank100000000001', 'ru.gazprombank.android.mobilebank.app'],
  ['Открытие', 'bank100000000015', 'com.openbank'],
  ['Совкомбанк', 'bank100000000013', 'ru.sovcomcard.halva.v1'],
  ['Росбанк', 'bank100000000012', 'ru.rosbank.android'],
  ['Почта Банк', 'bank100000000016', 'ru.pochta.bank'],
  ['Промсвязьбанк', 'bank100000000010', 'logo.com.mbanking'],
  ['Россельхозбанк', 'bank100000000020', 'ru.rshb.dbo'],
];

/** One small PNG for every bank: the sandbox shows where a logo goes, not the banks' artwork. */
const LOGO_PNG = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAFklEQVR42mNQXGBBEmIY1TCqYfhqAABKY/kB+OSXswAAAABJRU5ErkJggg=='),
  (c) => c.charCodeAt(0),
);

export const SBP_MEMBERS_PATH = '/proxyapp/c2bmembers.json';
const LOGO_PATH = /^\/proxyapp\/logo\/(bank\d{12})\.png$/;

/** The member list as the sandbox serves it, with logo URLs on `origin`. */
export function sbpMembers(origin: string) {
  return {
    version: '1.0',
    dictionary: MEMBERS.map(([bankName, schema, packageName]) => ({
      bankName,
      logoURL: `${origin}/proxyapp/logo/${schema}.png`,
      schema,
      package_name: packageName,
    })),
  };
}

/** The member whose iOS scheme or Android package this is, for the page that plays its app. */
export function sbpMemberOf(schemaOrPackage: string): { bankName: string; schema: string; packageName: string } | undefined {
  const member = MEMBERS.find(([, schema, packageName]) => schema === schemaOrPackage || packageName === schemaOrPackage);
  return member && { bankName: member[0], schema: member[1], packageName: member[2] };
}

/** The list or a logo for a GET under /proxyapp/, or undefined when `path` is neither. */
export function sbpMembersRoute(path: string, origin: string): Response | undefined {
  if (path === SBP_MEMBERS_PATH) return Response.json(sbpMembers(origin), { headers: { 'cache-control': 'max-age=3600' } });
  const schema = LOGO_PATH.exec(path)?.[1];
  if (schema && MEMBERS.some(([, s]) => s === schema)) {
    return new Response(LOGO_PNG, { headers: { 'content-type': 'image/png', 'cache-control': 'max-age=86400' } });
  }
  return undefined;
}
