package dev.asa.integrity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.asa.agreement.InvalidDocumentException;
import dev.asa.json.Json;
import java.math.BigDecimal;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The stored form of a calibration keeps exact sums: what a store writes it reads back equal, and a
 * calibration stored, read and added to is the calibration of all its samples.
 */
class CalibrationStoredFormTest {

  private static final String[] DIMENSIONS = {"accuracy", "writing", "on_time", "relevance"};

  private static Calibration random(Random r, int samples) {
    Calibration c = Calibration.EMPTY;
    for (int i = 0; i < samples; i++) {
      String dimension = DIMENSIONS[r.nextInt(DIMENSIONS.length)];
      // Scores with up to three decimals, as evaluators send them.
      BigDecimal score = BigDecimal.valueOf(r.nextInt(100_001), 3);
      BigDecimal reference = BigDecimal.valueOf(r.nextInt(101));
      Deviation d = Deviation.of(score, reference);
      c =
          r.nextBoolean()
              ? c.plusKnown(dimension, d)
              : c.plus(new Calibration(Map.of(), Map.of(dimension, d)));
    }
    return c;
  }

  private static Calibration roundTrip(Calibration c) throws Exception {
    return Calibration.fromStored(Json.parse(Json.write(c.toStored())));
  }

  @Test
  void whatIsStoredIsReadBackExactly() throws Exception {
    Random r = new Random(14_001);
    for (int i = 0; i < 300; i++) {
      Calibration c = random(r, r.nextInt(40));
      assertThat(roundTrip(c)).as("seed 14001, case %d", i).isEqualTo(c);
    }
    assertThat(roundTrip(Calibration.EMPTY)).isEqualTo(Calibration.EMPTY);
  }

  @Test
  void storedPartsAddUpToTheWhole() throws Exception {
    Random r = new Random(14_002);
    for (int i = 0; i < 200; i++) {
      Calibration whole = Calibration.EMPTY;
      Calibration stored = Calibration.EMPTY;
      for (int part = 0; part < 1 + r.nextInt(8); part++) {
        Calibration more = random(r, r.nextInt(10));
        whole = whole.plus(more);
        // What a store does on every update: read, add, write.
        stored = roundTrip(roundTrip(stored).plus(more));
      }
      assertThat(stored.overall()).as("seed 14002, case %d", i).isEqualTo(whole.overall());
      assertThat(stored.byDimension()).isEqualTo(whole.byDimension());
    }
  }

  @Test
  void aStoredFormThatIsNotOneIsRefusedByPointer() throws Exception {
    assertThatThrownBy(() ->
            Calibration.fromStored(
                Json.parse(
                    "{\"from_known\": {\"accuracy\": {\"samples\": 1, \"absolute_sum\": \"x\","
                        + " \"signed_sum\": \"0\"}}, \"from_consensus\": {}}")))
        .isInstanceOf(InvalidDocumentException.class)
        .hasMessageContaining("/from_known/accuracy/absolute_sum");
    assertThatThrownBy(() ->
            Calibration.fromStored(
                Json.parse(
                    "{\"from_known\": {\"accuracy\": {\"samples\": 0, \"absolute_sum\": \"3\","
                        + " \"signed_sum\": \"0\"}}, \"from_consensus\": {}}")))
        .isInstanceOf(InvalidDocumentException.class)
        .hasMessageContaining("/from_known/accuracy")
        .hasMessageContaining("a deviation over no sample is zero");
    assertThatThrownBy(() -> Calibration.fromStored(Json.parse("{\"from_known\": {}}")))
        .isInstanceOf(InvalidDocumentException.class)
        .hasMessageContaining("/from_consensus");
  }
}
