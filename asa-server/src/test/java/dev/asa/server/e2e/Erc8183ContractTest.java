package dev.asa.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The project's ERC-8183 job contract ({@code src/test/node/erc8183/contracts/AgenticCommerce.sol},
 * issue 20) on a real local EVM: compiled by {@code solc} and run on a {@code hardhat node}, both
 * from npm (pinned by the lock file, installed by {@code npm ci}). Its own tests ({@code
 * contract.test.mjs}) walk every transition the draft allows and the ones it refuses. The server's
 * {@code erc8183} binding is not built yet.
 */
class Erc8183ContractTest {
  private static final Path DIR = Path.of("src/test/node/erc8183");

  @Test
  void everyTransitionTheDraftAllowsWorksAndEveryOtherIsRefused() throws Exception {
    NodeScripts.install(DIR, "hardhat");
    String tap = NodeScripts.run(DIR, "--test", "", "contract.test.mjs");
    assertThat(tap).contains("# pass 14").contains("# fail 0");
  }
}
