package dev.asa.evaluators.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;

/** The text jsoup is handed: the same length, read the same way, in time linear in its length. */
class HtmlTest {

  @Test
  void ordinaryHtmlIsHandedOverAsWritten() {
    String page =
        "<div class=\"a<b\"><p>x < y and a<b</p><my-element>z</my-element><!-- <c --></div>";
    assertThat(Html.bounded(page)).isSameAs(page);
    Element div = Html.read(page).body().child(0);
    assertThat(page.substring(div.sourceRange().startPos(), div.sourceRange().endPos()))
        .isEqualTo("<div class=\"a<b\">");
  }

  @Test
  void onlyANameLongerThanAnyElementsIsEnded() {
    String longest = "<" + "a".repeat(Html.LONGEST_NAME) + " hidden>x";
    assertThat(Html.bounded(longest)).isSameAs(longest);
    // Past the longest name, a space ends it, so the rest is read as the tag's attributes.
    String longer = "</" + "a<".repeat(Html.LONGEST_NAME) + " hidden>x";
    assertThat(Html.bounded(longer))
        .isEqualTo(
            longer.substring(0, 2 + Html.LONGEST_NAME)
                + " "
                + longer.substring(3 + Html.LONGEST_NAME));
    // White space ends a name: the next one is counted from its own start.
    String names = "<a" + " <a".repeat(100);
    assertThat(Html.bounded(names)).isSameAs(names);
  }

  @Test
  void namesOfManyPiecesAreReadInBoundedTime() {
    String[] hostile = {
      "<" + "a".repeat(5_000_000), // a name of 5 MB
      "<a".repeat(2_500_000), // '<' inside a name is part of it
      "</a" + "\0a".repeat(2_500_000), // NULs inside an end tag's name
    };
    for (String text : hostile) {
      // Linear is about a second, joined piece by piece minutes: "ends" against "never ends".
      assertTimeoutPreemptively(Duration.ofSeconds(60), () -> Html.read(text));
    }
  }
}
