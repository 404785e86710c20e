package dev.asa.server.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.UnknownHostException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class InternalAddressesTest {

  /** Parses a literal the way the client's resolver does: no DNS for a literal. */
  private static InetAddress literal(String text) throws UnknownHostException {
    return InetAddress.getAllByName(text)[0];
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "127.0.0.1",
        "127.255.255.254",
        "2130706433", // 127.0.0.1 as one decimal number
        "0.0.0.0",
        "0.1.2.3",
        "10.0.0.1",
        "10.255.255.255",
        "172.16.0.1",
        "172.31.255.255",
        "192.168.0.1",
        "169.254.169.254",
        "169.254.0.1",
        "100.64.0.1",
        "100.127.255.255",
        "224.0.0.1",
        "239.255.255.250",
        "255.255.255.255",
        "240.0.0.1",
        "192.0.0.8",
        "192.0.2.1",
        "198.18.0.1",
        "198.51.100.7",
        "203.0.113.9",
        "::",
        "::1",
        "[::1]",
        "::ffff:127.0.0.1",
        "[::ffff:7f00:1]",
        "::ffff:10.0.0.1",
        "::ffff:169.254.169.254",
        "::127.0.0.1",
        "::ffff:0:7f00:1",
        "64:ff9b::7f00:1",
        "64:ff9b::a9fe:a9fe",
        "64:ff9b:1::1",
        "2002:7f00:1::",
        "2002:c0a8:101::1",
        "2001::1",
        "2001:db8::1",
        "fc00::1",
        "fd12:3456::1",
        "fe80::1",
        "febf::1",
        "fec0::1",
        "ff02::1",
        "100::1"
      })
  void internalAddressesAreRecognisedInEveryForm(String text) throws UnknownHostException {
    assertThat(InternalAddresses.kind(literal(text))).as(text).isPresent();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "93.184.216.34",
        "8.8.8.8",
        "1.1.1.1",
        "172.15.255.255",
        "172.32.0.1",
        "100.63.255.255",
        "100.128.0.1",
        "169.253.0.1",
        "192.169.0.1",
        "11.0.0.1",
        "223.255.255.255",
        "2606:4700:4700::1111",
        "2a00:1450:4001:80b::200e",
        "::ffff:8.8.8.8",
        "64:ff9b::808:808",
        "2002:808:808::1"
      })
  void publicAddressesPass(String text) throws UnknownHostException {
    assertThat(InternalAddresses.kind(literal(text))).as(text).isEmpty();
  }

  @Test
  void theKindSaysWhy() throws UnknownHostException {
    assertThat(InternalAddresses.kind(literal("127.0.0.1"))).contains("loopback");
    assertThat(InternalAddresses.kind(literal("169.254.169.254"))).contains("link-local");
    assertThat(InternalAddresses.kind(literal("100.64.0.1"))).get().asString().contains("CGNAT");
    assertThat(InternalAddresses.kind(literal("64:ff9b::7f00:1"))).contains("loopback (NAT64)");
    assertThat(InternalAddresses.kind(literal("2002:7f00:1::"))).contains("loopback (6to4)");
    assertThat(InternalAddresses.kind(literal("::127.0.0.1")))
        .contains("loopback (IPv4-compatible)");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "localhost",
        "LOCALHOST",
        "localhost.",
        "LOCALHOST.",
        "sub.localhost",
        "a.b.LocalHost..",
        "localhost.localdomain",
        "ip6-localhost",
        "ip6-loopback"
      })
  void loopbackNamesAreRecognisedWithoutALookup(String name) {
    assertThat(InternalAddresses.nameKind(name)).as(name).isPresent();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "example.com",
        "localhost.example.com",
        "notlocalhost",
        "localhosts",
        "my-localhost.dev"
      })
  void otherNamesAreLeftToTheirAddresses(String name) {
    assertThat(InternalAddresses.nameKind(name)).as(name).isEmpty();
  }
}
