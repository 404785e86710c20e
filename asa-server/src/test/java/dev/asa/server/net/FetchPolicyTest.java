package dev.asa.server.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

class FetchPolicyTest {
  private final FetchPolicy policy =
      new FetchPolicy(List.of("http://10.0.0.5:9000/store/", "https://pay.internal/"));

  private boolean allows(String url) {
    return policy.allows(URI.create(url));
  }

  @Test
  void aUrlUnderAPrefixIsAllowed() {
    assertThat(allows("http://10.0.0.5:9000/store/report.md")).isTrue();
    assertThat(allows("http://10.0.0.5:9000/store/a/b?x=1")).isTrue();
    assertThat(allows("HTTP://10.0.0.5:9000/store/report.md")).isTrue();
    assertThat(allows("https://PAY.internal/settle")).isTrue();
    assertThat(allows("https://pay.internal:443/settle"))
        .isTrue(); // the default port is the same origin
  }

  @Test
  void anythingElseIsNot() {
    assertThat(allows("http://10.0.0.5:9000/admin")).isFalse();
    assertThat(allows("http://10.0.0.5:9001/store/x")).isFalse();
    assertThat(allows("https://10.0.0.5:9000/store/x")).isFalse();
    assertThat(allows("http://10.0.0.5/store/x")).isFalse();
    assertThat(allows("http://pay.internal/settle")).isFalse();
    assertThat(allows("https://pay.internal.evil.example/settle")).isFalse();
    assertThat(allows("https://pay.internal:8443/settle")).isFalse();
    assertThat(allows("http://user@10.0.0.5:9000/store/x")).isFalse();
  }

  @Test
  void pathTricksDoNotEscapeThePrefix() {
    assertThat(allows("http://10.0.0.5:9000/store/../admin")).isFalse();
    assertThat(allows("http://10.0.0.5:9000/store/./../admin")).isFalse();
    assertThat(allows("http://10.0.0.5:9000/store/%2e%2e/admin")).isFalse();
    assertThat(allows("http://10.0.0.5:9000/store/%2E%2E/admin")).isFalse();
    assertThat(allows("http://10.0.0.5:9000/store/..%2fadmin")).isFalse();
    assertThat(allows("http://10.0.0.5:9000/store%2f../admin")).isFalse();
    assertThat(allows("http://10.0.0.5:9000/store/%5c..%5cadmin")).isFalse();
  }

  @Test
  void noPrefixesAllowsNothing() {
    assertThat(FetchPolicy.DEFAULTS.allows(URI.create("http://127.0.0.1:9000/"))).isFalse();
  }

  @Test
  void aPrefixMustEndItsHostWithAPath() {
    assertThatThrownBy(() -> new FetchPolicy(List.of("http://10.0.0.5")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new FetchPolicy(List.of("ftp://10.0.0.5/")))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
