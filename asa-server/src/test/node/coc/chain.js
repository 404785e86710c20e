// A Chain of Consciousness writer and checker written here from the format the CoC reference
// implementation publishes (alexfleetcommander/chain-of-consciousness: entry members, bare hex
// SHA-256, entry_hash over "seq|ts|type|agent|data_hash|prev_hash", 64 zeros before the genesis),
// with Node's own crypto, so that none of the server's code takes part. Reads
// {"chain": [entries], "append": {"type", "data", "agent"} (optional)} on stdin; prints
// {"chain": [entries, with the appended one], "valid": bool, "errors": [...]}.
const crypto = require("node:crypto");

const sha256 = (text) => crypto.createHash("sha256").update(text, "utf-8").digest("hex");
const ZERO = "0".repeat(64);

function check(chain) {
  const errors = [];
  if (chain.length === 0) return ["Chain is empty"];
  if (chain[0].type !== "genesis") return ["Entry 0 is not genesis"];
  if (chain[0].prev_hash !== ZERO) return ["Genesis prev_hash is not zeros"];
  for (let i = 0; i < chain.length; i++) {
    const e = chain[i];
    if (e.seq !== i) return [`Entry ${i}: sequence mismatch`];
    if (e.data_hash !== sha256(e.data)) return [`Entry ${i}: data_hash mismatch`];
    if (i > 0 && e.prev_hash !== chain[i - 1].entry_hash) return [`Entry ${i}: prev_hash mismatch`];
    const payload = `${e.seq}|${e.ts}|${e.type}|${e.agent}|${e.data_hash}|${e.prev_hash}`;
    if (e.entry_hash !== sha256(payload)) return [`Entry ${i}: entry_hash mismatch`];
  }
  return errors;
}

let input = "";
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const { chain, append } = JSON.parse(input);
  if (append) {
    const last = chain[chain.length - 1];
    const seq = chain.length;
    const ts = new Date().toISOString();
    const agent = append.agent ?? last.agent;
    const dataHash = sha256(append.data);
    const entry = {
      seq,
      ts,
      type: append.type,
      agent,
      data: append.data,
      data_hash: dataHash,
      prev_hash: last.entry_hash,
      entry_hash: sha256(`${seq}|${ts}|${append.type}|${agent}|${dataHash}|${last.entry_hash}`),
      schema_version: "1.1",
    };
    chain.push(entry);
  }
  const errors = check(chain);
  process.stdout.write(JSON.stringify({ chain, valid: errors.length === 0, errors }));
});
