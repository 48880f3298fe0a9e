/**
 * A fake but well-formed SBP QR link, `https://qr.nspk.ru/<ID>?type=02&bank=<member id>&sum=<kopecks>&cur=RUB&crc=<XXXX>`,
 * so that tests and demos can exercise the branch where the service hands over an interoperable SBP QR. Only the
 * merchant's bank can register a real one; this one is registered nowhere, and a banking app will say so. The
 * `crc` is a real CRC-16/CCITT-FALSE of the link before it, so a reader that checks it will not stumble.
 */

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

export interface SbpQrInput {
  /** The payee bank's SBP member id (12 digits). */
  bankSbpId: string;
  /** The sum in kopecks. */
  kopecks: number;
  random: () => number;
}

export function sbpQrLink({ bankSbpId, kopecks, random }: SbpQrInput): string {
  let id = 'AD1';
  while (id.length < 32) id += ID_ALPHABET[Math.min(ID_ALPHABET.length - 1, Math.floor(random() * ID_ALPHABET.length))];
  const head = `https://qr.nspk.ru/${id}?type=02&bank=${bankSbpId}&sum=${kopecks}&cur=RUB`;
  return `${head}&crc=${crc16(head).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) over the UTF-8 bytes of `text`. */
export function crc16(text: string): number {
  let crc = 0xffff;
  for (const byte of new TextEncoder().encode(text)) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}
