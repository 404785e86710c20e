package dev.asa.facts;

import com.fasterxml.jackson.annotation.JsonAutoDetect.Visibility;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.KeyDeserializer;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.deser.std.StdDelegatingDeserializer;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.ser.std.StdDelegatingSerializer;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import com.fasterxml.jackson.databind.util.StdConverter;
import dev.asa.agreement.Role;
import dev.asa.crypto.Digest;
import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.json.Json;
import java.io.IOException;
import java.time.Instant;
import java.util.Iterator;
import java.util.Locale;
import java.util.function.Function;

/**
 * The one JSON form of every typed fact: what the facts column stores and the events that record a
 * fact carry. Every fact is written and read here, by one mapper configured for facts; the records
 * say, by their components and a few annotations, which members they have.
 *
 * <p>The form is the one every version of the server has written, member for member and in the same
 * order (see {@code StoredFactFormsTest}): {@code snake_case} member names, a member that has no
 * value left out, instants as ISO-8601 text, keys and digests as text, the project's JSON settings
 * for the rest (decimals read exactly, duplicates refused, see {@link Json}).
 *
 * <p>Reading is strict: facts are written by this server only, so a stored fact with a member its
 * kind does not have, or with a value of the wrong type, is a bug, refused with an error that names
 * the member rather than silently dropped (it would be lost when written again).
 */
public final class FactCodec {
  private FactCodec() {}

  private static final ObjectMapper MAPPER =
      ((JsonMapper) Json.mapper())
          .rebuild()
          .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
          .defaultPropertyInclusion(
              JsonInclude.Value.construct(
                  JsonInclude.Include.NON_NULL, JsonInclude.Include.NON_NULL))
          // Record components (and what a record names with @JsonProperty) are members; isFunded(),
          // isOpen() and the like are not.
          .visibility(PropertyAccessor.IS_GETTER, Visibility.NONE)
          .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
          .addModule(values())
          .build();

  /** The stored form of {@code fact} (also the payload of the event that records it). */
  public static ObjectNode write(TypedFact fact) {
    return MAPPER.valueToTree(fact);
  }

  /**
   * The fact of kind {@code kind} that {@code stored} records.
   *
   * @throws IllegalStateException when it is not a stored form of that kind (a bug: only this
   *     server writes facts), naming the member at fault
   */
  static <T extends TypedFact> T read(JsonNode stored, Class<T> kind) {
    T fact;
    try {
      fact = MAPPER.treeToValue(stored, kind);
    } catch (JsonMappingException e) {
      throw new IllegalStateException(
          "a stored "
              + kind.getSimpleName()
              + " cannot be read at "
              + at(e)
              + ": "
              + e.getOriginalMessage(),
          e);
    } catch (IOException | RuntimeException e) {
      throw new IllegalStateException(
          "a stored " + kind.getSimpleName() + " cannot be read: " + e.getMessage(), e);
    }
    requireNothingLost(stored, kind, fact);
    return fact;
  }

  /**
   * Refuses a stored form with a member that writing the fact again would not give back: a member
   * its kind does not have (a settlement that moved no money has no {@code binding}).
   */
  private static void requireNothingLost(JsonNode stored, Class<?> kind, TypedFact fact) {
    ObjectNode written = write(fact);
    for (Iterator<String> names = stored.fieldNames(); names.hasNext(); ) {
      String member = names.next();
      if (!stored.get(member).isNull() && !written.has(member)) {
        throw new IllegalStateException(
            "a stored "
                + kind.getSimpleName()
                + (fact.getClass() == kind ? "" : " (" + fact.getClass().getSimpleName() + ")")
                + " has a member its kind does not: "
                + member);
      }
    }
  }

  private static String at(JsonMappingException e) {
    StringBuilder at = new StringBuilder();
    for (JsonMappingException.Reference r : e.getPath()) {
      if (r.getFieldName() != null) {
        at.append(at.isEmpty() ? "" : ".").append(r.getFieldName());
      } else if (r.getIndex() >= 0) {
        at.append('[').append(r.getIndex()).append(']');
      }
    }
    return at.isEmpty() ? "its top level" : at.toString();
  }

  // ---- the values facts hold -----------------------------------------------------------------

  /** How the values inside facts are written: each as text. */
  private static SimpleModule values() {
    SimpleModule m = new SimpleModule("facts");
    asText(m, Instant.class, Instant::toString, Instant::parse);
    asText(m, Digest.class, Digest::toString, Digest::parse);
    asText(
        m, Ed25519PublicKey.class, Ed25519PublicKey::toBase64Url, Ed25519PublicKey::fromBase64Url);
    asText(m, EscrowStatus.class, EscrowStatus::wireName, EscrowStatus::fromWire);
    asText(m, CollateralStatus.class, CollateralStatus::wireName, CollateralStatus::fromWire);
    asText(
        m,
        HardeningFact.Status.class,
        HardeningFact.Status::wireName,
        s -> HardeningFact.Status.valueOf(s.toUpperCase(Locale.ROOT)));
    asText(
        m,
        ProvenanceFact.Source.class,
        ProvenanceFact.Source::wireName,
        s -> ProvenanceFact.Source.valueOf(s.toUpperCase(Locale.ROOT)));
    m.addKeySerializer(
        Role.class,
        new StdSerializer<>(Role.class) {
          @Override
          public void serialize(Role r, JsonGenerator g, SerializerProvider p) throws IOException {
            g.writeFieldName(r.wireName());
          }
        });
    m.addKeyDeserializer(
        Role.class,
        new KeyDeserializer() {
          @Override
          public Object deserializeKey(String key, DeserializationContext c) throws IOException {
            try {
              return Role.fromWire(key);
            } catch (IllegalArgumentException e) {
              return c.handleWeirdKey(Role.class, key, e.getMessage());
            }
          }
        });
    m.addSerializer(
        SettlementFact.class,
        new StdDelegatingSerializer(
            new StdConverter<SettlementFact, SettlementForm>() {
              @Override
              public SettlementForm convert(SettlementFact s) {
                return SettlementForm.of(s);
              }
            }));
    m.addDeserializer(
        SettlementFact.class,
        new StdDelegatingDeserializer<>(
            new StdConverter<SettlementForm, SettlementFact>() {
              @Override
              public SettlementFact convert(SettlementForm form) {
                return form.fact();
              }
            }));
    return m;
  }

  /** Writes a {@code type} as the text {@code write} gives; reads it back with {@code read}. */
  private static <T> void asText(
      SimpleModule m, Class<T> type, Function<T, String> write, Function<String, T> read) {
    m.addSerializer(
        type,
        new StdSerializer<>(type) {
          @Override
          public void serialize(T value, JsonGenerator g, SerializerProvider p) throws IOException {
            g.writeString(write.apply(value));
          }
        });
    m.addDeserializer(
        type,
        new StdDeserializer<>(type) {
          @Override
          public T deserialize(JsonParser p, DeserializationContext c) throws IOException {
            if (p.currentToken() != JsonToken.VALUE_STRING) {
              @SuppressWarnings("unchecked")
              T none = (T) c.handleUnexpectedToken(type, p);
              return none;
            }
            String text = p.getText();
            try {
              return read.apply(text);
            } catch (RuntimeException e) {
              @SuppressWarnings("unchecked")
              T none = (T) c.handleWeirdStringValue(type, text, e.getMessage());
              return none;
            }
          }
        });
  }
}
