import { describe, expect, it } from 'vitest';
import {
  nodeCryptoProvider,
  signBody,
  verifySignature,
  webCryptoProvider,
  type BinaryLike,
  type HmacProvider,
  type SignatureEncoding,
} from '../../src/shared/hmac.js';
import { bytesToBase64, hexToBytes } from '../../src/shared/bytes.js';

const bytes = (value: number, length: number) => new Uint8Array(length).fill(value);
const text = (s: string) => new TextEncoder().encode(s);

// RFC 4231, section 4: the HMAC-SHA-256 results of test cases 1-7.
const RFC4231: { name: string; key: Uint8Array; data: Uint8Array; mac: string }[] = [
  { name: '1', key: bytes(0x0b, 20), data: text('Hi There'), mac: 'b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7' },
  {
    name: '2',
    key: text('Jefe'),
    data: text('what do ya want for nothing?'),
    mac: '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
  },
  { name: '3', key: bytes(0xaa, 20), data: bytes(0xdd, 50), mac: '773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe' },
  {
    name: '4',
    key: Uint8Array.from({ length: 25 }, (_, i) => i + 1),
    data: bytes(0xcd, 50),
    mac: '82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b',
  },
  { name: '5 (truncated to 128 bits)', key: bytes(0x0c, 20), data: text('Test With Truncation'), mac: 'a3b6167473100ee06e0c796c2955552b' },
  {
    name: '6',
    key: bytes(0xaa, 131),
    data: text('Test Using Larger Than Block-Size Key - Hash Key First'),
    mac: '60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54',
  },
  {
    name: '7',
    key: bytes(0xaa, 131),
    data: text(
      'This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.',
    ),
    mac: '9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2',
  },
];

// Every provider must give the same bytes: node:crypto where the runtime has it, Web Crypto on edge workers.
const PROVIDERS: HmacProvider[] = [nodeCryptoProvider(), webCryptoProvider].filter((p): p is HmacProvider => p !== undefined);

it('uses node:crypto on Node', () => {
  expect(PROVIDERS.map((p) => p.name)).toEqual(['node:crypto', 'Web Crypto']);
});

for (const using of PROVIDERS) {
  describe(`signBody and verifySignature with ${using.name}`, () => {
    const sign = (secret: BinaryLike, body: BinaryLike, encoding?: SignatureEncoding) => signBody(secret, body, encoding, using);
    const verify = (secret: BinaryLike, body: BinaryLike, signature: string | null | undefined, encoding?: SignatureEncoding) =>
      verifySignature(secret, body, signature, encoding, using);

    for (const vector of RFC4231) {
      it(`match RFC 4231 test case ${vector.name}`, async () => {
        const mac = await sign(vector.key, vector.data);
        expect(mac.slice(0, vector.mac.length)).toBe(vector.mac);
        if (vector.mac.length === 64) expect(await verify(vector.key, vector.data, vector.mac)).toBe(true);
      });
    }

    it("reproduce the provider's worked example over the exact bytes, spaces included", async () => {
      const body = '{"order_id": "123", "currency": "uah", "wallet_type": "ecom", "amount": 10, "payway": "card"}';
      expect(await sign('secretKey', body)).toBe('0ff2fa58c4811407c4cd5fcb5adef76bf32c4213a579da5b17ebffb61525cb11');
    });

    it('refuse the same body once it is re-serialised', async () => {
      const body = '{"order_id": "123", "amount": 10}';
      const signature = await sign('secretKey', body);
      expect(await verify('secretKey', body, signature)).toBe(true);
      expect(await verify('secretKey', JSON.stringify(JSON.parse(body)), signature)).toBe(false);
    });

    it('never verify an empty, missing, blank or malformed signature', async () => {
      for (const signature of ['', '   ', undefined, null, 'zz', 'abc', '0'.repeat(63)]) {
        expect(await verify('secret', '{}', signature)).toBe(false);
      }
    });

    it('refuse a signature made with another secret or over another body', async () => {
      const signature = await sign('secret-a', '{"a":1}');
      expect(await verify('secret-b', '{"a":1}', signature)).toBe(false);
      expect(await verify('secret-a', '{"a":2}', signature)).toBe(false);
    });

    it('accept uppercase hex and treat string and byte inputs alike', async () => {
      const signature = await sign(text('k'), text('body'));
      expect(signature).toMatch(/^[0-9a-f]{64}$/);
      expect(await sign('k', 'body')).toBe(signature);
      expect(await verify('k', 'body', signature.toUpperCase())).toBe(true);
    });

    it('sign and verify in base64 when asked', async () => {
      const hex = await sign('k', 'body');
      const b64 = await sign('k', 'body', 'base64');
      expect(b64).toBe(bytesToBase64(hexToBytes(hex)!));
      expect(await verify('k', 'body', b64, 'base64')).toBe(true);
      expect(await verify('k', 'body', hex, 'base64')).toBe(false);
    });

    it('refuse to sign with an empty secret, naming the setting to fix', async () => {
      await expect(sign('', 'body')).rejects.toThrow(/PAYIN_SECRET/);
    });

    it('hash UTF-8 text as UTF-8 bytes', async () => {
      const { createHmac } = await import('node:crypto');
      const body = '{"recipient":"Иван Петров","note":"पेमेंट"}';
      expect(await sign('k', body)).toBe(createHmac('sha256', 'k').update(Buffer.from(body, 'utf8')).digest('hex'));
    });
  });
}
