// Signs one HTTP request with the npm package http-message-signatures (an RFC 9421
// implementation this project did not write), using its defaults: label "sig", parameters
// keyid, alg, created and expires, plus the nonce the ASA profile requires.
//
// stdin:  {"method", "url", "body" (text or null), "pkcs8" (base64 DER of an Ed25519 key),
//          "keyid", "nonce", "fields" (optional component list)}
// stdout: the request headers to send, as a JSON object.
import { createHash, createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createSigner, httpbis } from 'http-message-signatures';

const input = JSON.parse(readFileSync(0, 'utf8'));
const headers = {};
if (input.body !== null && input.body !== undefined) {
  headers['content-type'] = 'application/json';
  // RFC 9530: the library signs a Content-Digest but leaves computing it to the caller.
  const digest = createHash('sha256').update(Buffer.from(input.body, 'utf8')).digest('base64');
  headers['content-digest'] = `sha-256=:${digest}:`;
}
const key = createPrivateKey({
  key: Buffer.from(input.pkcs8, 'base64'),
  format: 'der',
  type: 'pkcs8',
});
const signed = await httpbis.signMessage(
  {
    key: createSigner(key, 'ed25519', input.keyid),
    fields:
      input.fields ??
      (input.body == null
        ? ['@method', '@target-uri']
        : ['@method', '@target-uri', 'content-digest']),
    params: ['keyid', 'alg', 'created', 'expires', 'nonce'],
    paramValues: { nonce: input.nonce },
  },
  { method: input.method, url: input.url, headers, body: input.body ?? undefined },
);
process.stdout.write(JSON.stringify(signed.headers));
