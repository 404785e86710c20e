package dev.asa.server.e2e;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.testing.Fixtures;

/** The x402 agreements the end-to-end tests make: the general template, 10.00 USDC. */
final class X402Documents {
  private X402Documents() {}

  /**
   * With docs/escrow.md's binding: type, network, asset and pay_to only (USDC on Base Sepolia),
   * scheme {@code upto} by default.
   */
  static ObjectNode upto() {
    ObjectNode doc = Fixtures.general();
    doc.withObject("/escrow/payment").put("amount", "10.00").put("currency", "USDC");
    ((ObjectNode) doc.path("escrow"))
        .putObject("binding")
        .put("type", "x402")
        .put("network", "eip155:84532")
        .put("asset", "0x036CbD53842c5426634e7929541eC2318f3dCF7e")
        .put("pay_to", "0x209693Bc6afc0C5328bA36FaF03C514EF312287C");
    return doc;
  }

  /**
   * The {@code exact} scheme (with the token's EIP-712 name and version) and no graduated release,
   * so every release is all or nothing.
   */
  static ObjectNode exact() {
    ObjectNode doc = upto();
    ((ObjectNode) doc.at("/escrow/binding"))
        .put("scheme", "exact")
        .putObject("extra")
        .put("name", "USDC")
        .put("version", "2");
    doc.withObject("/escrow/payment").putObject("graduated_release").put("enabled", false);
    return doc;
  }
}
