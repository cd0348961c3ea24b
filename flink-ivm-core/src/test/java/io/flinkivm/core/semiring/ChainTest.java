package io.flinkivm.core.semiring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ChainTest {

    private static final Chain STRING = Chain.of(Chain.Kind.STRING, "STRING");

    @Test
    void stringsOrderAsTheirUtf8Bytes() {
        Random r = new Random(5);
        char[] alphabet = {'a', 'b', 'Z', 'é', '\u00FF', '\uD7FF', '\uE000', '\uFF21', '\uFFFF'};
        for (int i = 0; i < 20_000; i++) {
            String a = randomString(r, alphabet);
            String b = randomString(r, alphabet);
            int expected = Integer.signum(
                    Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8)));
            assertThat(Integer.signum(Chain.compareCodePoints(a, b)))
                    .as("'%s' vs '%s'", a, b)
                    .isEqualTo(expected);
        }
    }

    /** Strings of BMP characters and characters beyond U+FFFF (surrogate pairs). */
    private static String randomString(Random r, char[] alphabet) {
        StringBuilder sb = new StringBuilder();
        for (int k = r.nextInt(4); k > 0; k--) {
            if (r.nextInt(4) == 0) {
                sb.appendCodePoint(0x10000 + r.nextInt(0x100000));
            } else {
                sb.append(alphabet[r.nextInt(alphabet.length)]);
            }
        }
        return sb.toString();
    }

    @Test
    void aCharacterBeyondFfffIsAboveFullwidthLettersUnlikeJavasOrder() {
        String fullwidthA = "\uFF21";
        String beyond = new String(Character.toChars(0x2070E));
        assertThat(fullwidthA.compareTo(beyond)).isPositive();
        assertThat(Chain.compareCodePoints(fullwidthA, beyond)).isNegative();
        assertThat(STRING.compare(Chain.VALUE, fullwidthA, Chain.VALUE, beyond)).isNegative();
        assertThat(STRING.compare(Chain.BOTTOM, null, Chain.VALUE, "")).isNegative();
        assertThat(STRING.compare(Chain.TOP, null, Chain.VALUE, beyond)).isPositive();
    }

    @Test
    void doublesEncodeInOrder() {
        double[] sorted = {-Double.MAX_VALUE, -1e300, -2.5, -Double.MIN_VALUE, 0.0, Double.MIN_VALUE, 0.25, 1e300};
        for (int i = 1; i < sorted.length; i++) {
            assertThat(Chain.encodeDouble(sorted[i - 1])).isLessThan(Chain.encodeDouble(sorted[i]));
            assertThat(Chain.decodeDouble(Chain.encodeDouble(sorted[i]))).isEqualTo(sorted[i]);
        }
        assertThat(Chain.encodeDouble(-0.0)).isEqualTo(Chain.encodeDouble(0.0));
        assertThat(Chain.encodeDouble(-Double.MAX_VALUE)).isGreaterThan(Chain.BOTTOM);
        assertThat(Chain.encodeDouble(Double.MAX_VALUE)).isLessThan(Chain.TOP);
    }

    @Test
    void textsOfEveryKindRoundTrip() {
        check(Chain.of(Chain.Kind.INTEGER, "BIGINT"), -42L, null, "-42");
        check(Chain.decimal(12, 2, "DECIMAL(12, 2)"), -1050L, null, "-10.50");
        check(Chain.of(Chain.Kind.DOUBLE, "DOUBLE"), Chain.encodeDouble(-2.5), null, "-2.5");
        check(Chain.of(Chain.Kind.BOOLEAN, "BOOLEAN"), 1L, null, "true");
        check(Chain.of(Chain.Kind.DATE, "DATE"), LocalDate.of(1969, 12, 30).toEpochDay(), null, "1969-12-30");
        check(Chain.of(Chain.Kind.TIME, "TIME"), 36_930_500_000_000L, null, "10:15:30.500");
        check(
                Chain.of(Chain.Kind.TIMESTAMP, "TIMESTAMP(6)"),
                Chain.micros(LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_000)),
                null,
                "1969-12-31T23:59:59.999999");
        check(STRING, Chain.VALUE, "it's; {x}", "'it''s; {x}'");
        check(
                Chain.decimal(30, 2, "DECIMAL(30, 2)"),
                Chain.VALUE,
                new BigDecimal("-1234567890123456789012.30"),
                "-1234567890123456789012.30");
        check(
                Chain.of(Chain.Kind.TIMESTAMP_NANOS, "TIMESTAMP(9)"),
                Chain.VALUE,
                LocalDateTime.of(2262, 4, 12, 0, 0, 0, 1),
                "2262-04-12T00:00:00.000000001");
        check(STRING, Chain.TOP, null, "top");
        check(STRING, Chain.BOTTOM, null, "bottom");
        assertThat(Chain.timestamp(-1)).isEqualTo(LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_000));
    }

    private static void check(Chain chain, long v, Object o, String text) {
        assertThat(chain.format(v, o)).isEqualTo(text);
        long[] longs = new long[1];
        Object[] objects = new Object[1];
        chain.parse(text, longs, objects, 0);
        assertThat(longs[0]).isEqualTo(v);
        assertThat(objects[0]).isEqualTo(o);
    }

    @Test
    void malformedTextsAndValuesAreRejected() {
        long[] longs = new long[1];
        Object[] objects = new Object[1];
        assertThatThrownBy(() -> STRING.parse("abc", longs, objects, 0))
                .isInstanceOf(PayloadFormatException.class)
                .hasMessageContaining("a string is quoted");
        assertThatThrownBy(() -> STRING.parse("'a'b'", longs, objects, 0))
                .isInstanceOf(PayloadFormatException.class)
                .hasMessageContaining("a quote inside is doubled");
        assertThatThrownBy(() -> Chain.decimal(12, 2, "DECIMAL(12, 2)").parse("1.234", longs, objects, 0))
                .isInstanceOf(PayloadFormatException.class)
                .hasMessageContaining("not a value of DECIMAL(12, 2)");
        assertThatThrownBy(() -> Chain.of(Chain.Kind.BOOLEAN, "BOOLEAN").parse("yes", longs, objects, 0))
                .isInstanceOf(PayloadFormatException.class)
                .hasMessageContaining("not a value of BOOLEAN");
        assertThatThrownBy(() -> Chain.of(Chain.Kind.DATE, "DATE").parse("2024-13-01", longs, objects, 0))
                .isInstanceOf(PayloadFormatException.class)
                .hasMessageContaining("not a value of DATE");
        assertThatThrownBy(() -> Chain.decimal(30, 2, "DECIMAL(30, 2)").checkObject(new BigDecimal("1.5")))
                .isInstanceOf(PayloadFormatException.class)
                .hasMessageContaining("not a value of DECIMAL(30, 2)");
        assertThatThrownBy(() -> Chain.micros(LocalDateTime.of(2024, 1, 1, 0, 0, 0, 1)))
                .isInstanceOf(ArithmeticException.class)
                .hasMessageContaining("more precise than a microsecond");
        assertThat(Chain.of(Chain.Kind.INTEGER, "BIGINT").isLongValue(Long.MAX_VALUE))
                .isFalse();
        assertThat(Chain.of(Chain.Kind.TIME, "TIME").isLongValue(86_400_000_000_000L))
                .isFalse();
        assertThat(Chain.decimal(18, 0, "DECIMAL(18, 0)").kind()).isEqualTo(Chain.Kind.DECIMAL);
        assertThat(Chain.decimal(19, 0, "DECIMAL(19, 0)").kind()).isEqualTo(Chain.Kind.BIG_DECIMAL);
    }
}
