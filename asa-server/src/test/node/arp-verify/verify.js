// Checks ARP signals signed by an ASA server with Node's own Ed25519 and a JCS written here from
// RFC 8785's rules (members sorted by UTF-16 code units; numbers and strings as JSON.stringify
// writes them), so that nothing of the server's code takes part. Reads
// {"key": <base64url public key>, "signals": [...]} on stdin; prints one line per signal:
// "<signal_id> ok" or "<signal_id> BAD".
const crypto = require("node:crypto");

function canonical(value) {
  if (value === null || typeof value !== "object") {
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) {
    return "[" + value.map(canonical).join(",") + "]";
  }
  const names = Object.keys(value).sort();
  return "{" + names.map((n) => JSON.stringify(n) + ":" + canonical(value[n])).join(",") + "}";
}

let input = "";
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const { key, signals } = JSON.parse(input);
  const publicKey = crypto.createPublicKey({
    key: { kty: "OKP", crv: "Ed25519", x: key },
    format: "jwk",
  });
  for (const signal of signals) {
    const { verification, ...signed } = signal;
    const ok =
      verification.key === key &&
      crypto.verify(
        null,
        Buffer.from(canonical(signed), "utf8"),
        publicKey,
        Buffer.from(verification.proof, "base64"),
      );
    console.log(signal.signal_id + " " + (ok ? "ok" : "BAD"));
  }
});
