// The official x402 client (npm @x402/core's x402HTTPClient with @x402/evm's upto scheme), as a
// buyer uses it: it reads the server's PAYMENT-REQUIRED header, creates the PaymentPayload with the
// payer's key, and encodes the PAYMENT-SIGNATURE header. No chain access is needed to sign.
//
// The buyer's own spending policy is configured as any buyer would for an escrow above the client's
// default cap of $1 a payment: up to "maxUsd".
//
// stdin:  {"paymentRequired": <PAYMENT-REQUIRED header value>, "privateKey": "0x...", "maxUsd": 20}
// stdout: the headers to add, as JSON ({"PAYMENT-SIGNATURE": "..."}).
import { readFileSync } from 'node:fs';
import { x402Client, x402HTTPClient } from '@x402/core/client';
import { UptoEvmScheme } from '@x402/evm/upto/client';
import { privateKeyToAccount } from 'viem/accounts';

const input = JSON.parse(readFileSync(0, 'utf8'));
const client = new x402Client().register(
  'eip155:84532',
  new UptoEvmScheme(privateKeyToAccount(input.privateKey)),
);
client.setSpendControls({ maxAmountPerPayment: input.maxUsd });
const http = new x402HTTPClient(client);
const required = http.getPaymentRequiredResponse((name) =>
  name.toUpperCase() === 'PAYMENT-REQUIRED' ? input.paymentRequired : undefined,
);
const payload = await http.createPaymentPayload(required);
process.stdout.write(JSON.stringify(http.encodePaymentSignatureHeader(payload)));
