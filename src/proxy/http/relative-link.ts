/**
 * Links that hold wherever the browser sees the proxy. Something in front may serve it under a longer path than
 * the one it is mounted at (Next's `basePath` is taken off `request.url`; a front server's `location /shop/ {
 * proxy_pass http://app/; }` strips `/shop`), and the proxy cannot see that prefix. It does see the rest of the
 * browser's path, unchanged: a link written relative to the path it was asked for lands, once the browser resolves
 * it against its own address, on the browser's prefix plus the target. So the bank list's logos and the console's
 * links, forms, scripts and redirects are written this way; only a cookie's Path, which a browser never resolves,
 * needs the prefix itself (the `publicBasePath` option).
 */

/**
 * The relative reference from the page at `from` to `to`, both paths under the same root (`/payin/console/login`
 * to `/payin/console` is `../console`). It starts with `./` or `../`, so that a first segment holding a colon is
 * never read as a scheme. It never climbs above the root, which is where the browser's prefix ends.
 */
export function relativeLink(from: string, to: string): string {
  // The folders of `from` (its last segment is the page itself), and the segments of `to`.
  const folders = from.split('/').slice(1, -1);
  const target = to.split('/').slice(1);
  let shared = 0;
  while (shared < folders.length && shared < target.length - 1 && folders[shared] === target[shared]) shared++;
  return `${'../'.repeat(folders.length - shared) || './'}${target.slice(shared).join('/')}`;
}
