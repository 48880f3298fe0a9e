/**
 * GET {basePath}/sbp-banks and {basePath}/sbp-banks/logos/<schema>.png: the NSPK member list for the element's SBP
 * bank chooser, in the list's own shape (`{version, dictionary: [{bankName, logoURL, schema, package_name}]}`), with
 * each logo rewritten to this origin so that the page's strict CSP (`img-src 'self'`) allows it. A logo's address
 * is relative to the list's (relative-link.ts), which the element resolves it against: it holds under whatever
 * path the browser sees the proxy at (Next's basePath, a front server that strips a prefix). The list comes from
 * `sbpBanksUrl` (PAYIN_SBP_BANKS_URL), is kept for `sbpBanksTtlMs`, refreshed one fetch at a time, and the last
 * good copy is served when a refresh fails; 502 only when there never was one. Entries without a valid `schema`
 * are dropped; logos are fetched as logo-fetch.ts says (the SSRF rules), each at most once at a time, kept when
 * good and their failures kept for a while, so that visitors cannot make the proxy fetch at will. The list is
 * served in the order to show it: the largest banks first (by schema, the one stable key), then the rest by name,
 * so the element only puts the shopper's last bank in front.
 */
import { z } from 'zod';
import { readBody } from '../../shared/body.js';
import type { Answer } from '../http/exchange.js';
import { isMisleading } from '../../shared/misleading-text.js';
import { ANDROID_PACKAGE, isSbpBankSchema } from '../../shared/qr-payload.js';
import { describe, jsonAnswer, ProxyError } from '../http/errors.js';
import { ExpiringMap } from '../infrastructure/expiring-map.js';
import { fetchLogo, type Logo, resolveWithNodeDns } from '../infrastructure/logo-fetch.js';
import type { ResolvedOptions } from '../resolved-options.js';
import { relativeLink } from '../http/relative-link.js';

/** Sberbank, T-Bank, VTB, Alfa, Raiffeisen, Gazprombank, Sovcombank, Promsvyazbank, Rosbank. */
const LARGEST = [111, 4, 5, 8, 7, 1, 13, 10, 12].map((n) => `bank${String(1e11 + n)}`);

const byName = new Intl.Collator('ru');

/** The largest banks in their order, then the rest by name. */
export function inShowingOrder(members: readonly SbpMember[]): SbpMember[] {
  const rank = (m: SbpMember) => (LARGEST.includes(m.schema) ? LARGEST.indexOf(m.schema) : LARGEST.length);
  return [...members].sort((a, b) => rank(a) - rank(b) || byName.compare(a.bankName, b.bankName));
}
const MAX_LIST_BYTES = 1024 * 1024;
/** Logos kept in memory (a list has a few hundred banks). */
const MAX_LOGOS = 500;
/** A logo that could not be fetched is not asked for again this soon, whoever asks. */
const LOGO_FAILURE_TTL_MS = 10 * 60_000;

const memberSchema = z.looseObject({
  // A name that reads as another bank's (a direction override, an invisible character) would have the shopper tap
  // it for one bank and open another's app: the entry is dropped.
  bankName: z
    .string()
    .min(1)
    .max(200)
    .refine((name) => !isMisleading(name)),
  logoURL: z.string().optional().catch(undefined),
  schema: z.string(),
  package_name: z.string().regex(ANDROID_PACKAGE).optional().catch(undefined),
});
const listSchema = z.looseObject({ version: z.string().optional().catch(undefined), dictionary: z.array(z.unknown()) });

export type SbpMember = z.infer<typeof memberSchema>;

interface Cached {
  members: SbpMember[];
  version: string | undefined;
  fetchedAt: number;
}

export class SbpBankList {
  #cached: Cached | undefined;
  #refreshing: Promise<void> | undefined;
  readonly #logos = new Map<string, Logo>();
  readonly #failedLogos: ExpiringMap<true>;
  readonly #fetchingLogos = new Map<string, Promise<Logo>>();

  constructor(private readonly options: ResolvedOptions) {
    this.#failedLogos = new ExpiringMap<true>(options.clock, MAX_LOGOS);
  }

  /** The list for the browser asking at `pathname`, logos pointing at `{basePath}/sbp-banks/logos/` from there. */
  async answer(pathname: string): Promise<Answer> {
    const { clock, basePath, sbpBanks } = this.options;
    if (!this.#cached || clock.now() - this.#cached.fetchedAt >= sbpBanks.ttlMs) await this.#refresh();
    const cached = this.#cached;
    if (!cached) throw new ProxyError('upstream_error', 'the SBP bank list is not available yet; try again');
    const dictionary = cached.members.map(({ bankName, schema, package_name, logoURL }) => ({
      bankName,
      schema,
      ...(package_name ? { package_name } : {}),
      ...(this.#logoSource(logoURL) ? { logoURL: relativeLink(pathname, `${basePath}/sbp-banks/logos/${schema}.png`) } : {}),
    }));
    return jsonAnswer(200, { version: cached.version ?? '', dictionary }, { 'cache-control': 'public, max-age=3600' });
  }

  /**
   * One bank's logo: fetched once, by one request at a time (the others wait for it), kept when good; a failure
   * answers 502 to everyone asking for that logo for the next ten minutes without another fetch.
   */
  async logo(schema: string): Promise<Answer> {
    const kept = this.#logos.get(schema);
    if (kept) return logoAnswer(kept);
    if (!isSbpBankSchema(schema)) throw new ProxyError('not_found', 'no logo for this bank');
    if (this.#failedLogos.get(schema)) throw logoFailed();
    let fetching = this.#fetchingLogos.get(schema);
    if (!fetching) {
      fetching = this.#fetchLogo(schema).finally(() => this.#fetchingLogos.delete(schema));
      this.#fetchingLogos.set(schema, fetching);
    }
    return logoAnswer(await fetching);
  }

  async #fetchLogo(schema: string): Promise<Logo> {
    if (!this.#cached) await this.#refresh();
    const source = this.#logoSource(this.#cached?.members.find((m) => m.schema === schema)?.logoURL);
    if (!source) throw new ProxyError('not_found', 'no logo for this bank');
    try {
      const { fetch, sbpBanks, timeouts } = this.options;
      const listOrigin = new URL(sbpBanks.url).origin;
      const logo = await fetchLogo(new URL(source), { listOrigin, fetch, resolveHost: resolveWithNodeDns, timeLimitMs: timeouts.statusMs });
      if (this.#logos.size < MAX_LOGOS) this.#logos.set(schema, logo);
      return logo;
    } catch (error) {
      this.#failedLogos.set(schema, true, LOGO_FAILURE_TTL_MS);
      this.options.logger.warn('could not fetch an SBP bank logo; not trying again for 10 minutes', { schema, error: describe(error) });
      throw logoFailed();
    }
  }

  /** Where a logo may be fetched from: https, or the list's own origin (a sandbox on loopback). */
  #logoSource(logoURL: string | undefined): string | undefined {
    if (!logoURL) return undefined;
    try {
      const url = new URL(logoURL);
      const listOrigin = new URL(this.options.sbpBanks.url).origin;
      return url.protocol === 'https:' || url.origin === listOrigin ? url.href : undefined;
    } catch {
      return undefined;
    }
  }

  /** One fetch at a time; a failure keeps the last good copy and is logged. */
  #refresh(): Promise<void> {
    this.#refreshing ??= (async () => {
      const { fetch, sbpBanks, clock, logger, timeouts } = this.options;
      try {
        const answer = await fetch(sbpBanks.url, { signal: AbortSignal.timeout(timeouts.statusMs) });
        if (!answer.ok) throw new Error(`HTTP ${answer.status}`);
        const bytes = await readBody(answer, MAX_LIST_BYTES);
        const parsed = listSchema.safeParse(JSON.parse(new TextDecoder().decode(bytes)));
        if (!parsed.success) throw new Error('not a member list ({version, dictionary: [...]})');
        const members = parsed.data.dictionary.flatMap((entry) => {
          const member = memberSchema.safeParse(entry);
          return member.success && isSbpBankSchema(member.data.schema) ? [member.data] : [];
        });
        if (members.length === 0) throw new Error('the member list has no usable entries');
        this.#cached = { members: inShowingOrder(members), version: parsed.data.version, fetchedAt: clock.now() };
      } catch (error) {
        logger.warn(
          this.#cached ? 'refreshing the SBP bank list failed; serving the last good copy' : 'fetching the SBP bank list failed',
          {
            error: describe(error),
          },
        );
        // Try again at the next request rather than at once for every waiting one.
        if (this.#cached) this.#cached = { ...this.#cached, fetchedAt: clock.now() };
      } finally {
        this.#refreshing = undefined;
      }
    })();
    return this.#refreshing;
  }
}

const logoFailed = () => new ProxyError('upstream_error', 'the logo could not be fetched');

function logoAnswer({ bytes, type }: Logo): Answer {
  return { status: 200, headers: { 'content-type': type, 'cache-control': 'public, max-age=86400' }, body: bytes };
}
