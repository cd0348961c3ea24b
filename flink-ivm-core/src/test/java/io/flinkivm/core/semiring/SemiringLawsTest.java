package io.flinkivm.core.semiring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Property-based checks of the semiring laws and of the declared properties, for every built-in. */
class SemiringLawsTest {

    private static final int TRIPLES = 4000;
    private static final long SEED = 20240917L;

    static Stream<String> builtIns() {
        return Stream.of(
                "natural",
                "boolean",
                "min-plus",
                "max-plus",
                "viterbi",
                "provenance",
                "covariance:1",
                "covariance:2",
                "covariance:3",
                "integer",
                "covariance-ring:1",
                "covariance-ring:2",
                "covariance-ring:3");
    }

    static Stream<String> rings() {
        return builtIns().filter(name -> Semirings.byName(name) instanceof Ring);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rings")
    void ringLawsHold(String name) {
        checkRingLaws((Ring<?>) Semirings.byName(name), new Random(SEED + 7 * name.hashCode()));
    }

    /**
     * The laws of the additive inverse, and what {@link Ring#canRemove} promises: a row gives up all of
     * itself, an absent row nothing.
     */
    static <T> void checkRingLaws(Ring<T> s, Random r) {
        assertThat(s.has(SemiringProperty.RING))
                .as("%s declares RING", s.name())
                .isTrue();
        assertThat(s.has(SemiringProperty.POSITIVE))
                .as("%s is not positive", s.name())
                .isFalse();
        assertThat(Semirings.checked(s)).isSameAs(s);
        T zero = s.zero();
        expect(s, "-0 = 0", s.negate(zero), zero, zero);
        for (int i = 0; i < TRIPLES; i++) {
            T a = RandomPayloads.random(s, r);
            T b = RandomPayloads.random(s, r);
            expect(s, "a + (-a) = 0", s.plus(a, s.negate(a)), zero, a);
            expect(s, "-(-a) = a", s.negate(s.negate(a)), a, a);
            expect(s, "-(a + b) = -a + -b", s.negate(s.plus(a, b)), s.plus(s.negate(a), s.negate(b)), a, b);
            expect(s, "(a - b) + b = a", s.plus(s.minus(a, b), b), a, a, b);
            expect(s, "(-a) · b = -(a · b)", s.times(s.negate(a), b), s.negate(s.times(a, b)), a, b);
            roundTrip(s, s.negate(a));
            expect(s, "canRemove(a, a) iff a != 0", s.canRemove(a, a), !s.isZero(a), a);
            expect(s, "canRemove(0, a) is false", s.canRemove(zero, a), false, a);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("builtIns")
    void lawsHold(String name) {
        checkLaws(Semirings.byName(name), new Random(SEED + name.hashCode()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("builtIns")
    void semiringAndPayloadsSurviveJavaSerialization(String name) {
        checkSerialization(Semirings.byName(name), new Random(SEED));
    }

    static <T> void checkLaws(Semiring<T> s, Random r) {
        checkLaws(s, () -> RandomPayloads.random(s, r));
    }

    /** The laws and the declared properties over payloads that {@code draw} makes (the zero included). */
    static <T> void checkLaws(Semiring<T> s, java.util.function.Supplier<T> draw) {
        T zero = s.zero();
        T one = s.one();
        assertThat(s.isZero(zero)).as("%s: isZero(zero())", s.name()).isTrue();
        assertThat(s.isZero(one)).as("%s: isZero(one())", s.name()).isFalse();
        assertThat(s.has(SemiringProperty.COMMUTATIVE))
                .as("%s declares COMMUTATIVE", s.name())
                .isTrue();
        boolean idempotent = s.has(SemiringProperty.IDEMPOTENT);
        boolean positive = s.has(SemiringProperty.POSITIVE);
        boolean sawNonIdempotent = false;

        for (int i = 0; i < TRIPLES; i++) {
            T a = draw.get();
            T b = draw.get();
            T c = draw.get();

            expect(s, "(a + b) + c = a + (b + c)", s.plus(s.plus(a, b), c), s.plus(a, s.plus(b, c)), a, b, c);
            expect(s, "a + b = b + a", s.plus(a, b), s.plus(b, a), a, b);
            expect(s, "(a · b) · c = a · (b · c)", s.times(s.times(a, b), c), s.times(a, s.times(b, c)), a, b, c);
            expect(s, "a · b = b · a", s.times(a, b), s.times(b, a), a, b);
            expect(s, "a + 0 = a", s.plus(a, zero), a, a);
            expect(s, "0 + a = a", s.plus(zero, a), a, a);
            expect(s, "a · 1 = a", s.times(a, one), a, a);
            expect(s, "1 · a = a", s.times(one, a), a, a);
            expect(
                    s,
                    "a · (b + c) = a·b + a·c",
                    s.times(a, s.plus(b, c)),
                    s.plus(s.times(a, b), s.times(a, c)),
                    a,
                    b,
                    c);
            expect(
                    s,
                    "(a + b) · c = a·c + b·c",
                    s.times(s.plus(a, b), c),
                    s.plus(s.times(a, c), s.times(b, c)),
                    a,
                    b,
                    c);
            expect(s, "a · 0 = 0", s.times(a, zero), zero, a);
            expect(s, "0 · a = 0", s.times(zero, a), zero, a);
            expect(s, "isZero(a) iff a = 0", s.isZero(a), a.equals(zero), a);

            T sum = s.plus(a, b);
            T product = s.times(a, b);
            roundTrip(s, a);
            roundTrip(s, sum);
            roundTrip(s, product);
            if (a.equals(b)) {
                expect(s, "a = b implies hash(a) = hash(b)", a.hashCode(), b.hashCode(), a, b);
            }

            T twice = s.plus(a, a);
            if (idempotent) {
                expect(s, "a + a = a (declared IDEMPOTENT)", twice, a, a);
            } else if (!twice.equals(a)) {
                sawNonIdempotent = true;
            }
            if (positive) {
                if (s.isZero(sum) && !(s.isZero(a) && s.isZero(b))) {
                    fail("%s declares POSITIVE but a + b = 0 with a = %s, b = %s", s.name(), s.format(a), s.format(b));
                }
                if (s.isZero(product) && !(s.isZero(a) || s.isZero(b))) {
                    fail("%s declares POSITIVE but a · b = 0 with a = %s, b = %s", s.name(), s.format(a), s.format(b));
                }
            }
        }
        if (!idempotent) {
            assertThat(sawNonIdempotent)
                    .as("%s does not declare IDEMPOTENT, so some sample should have a + a != a", s.name())
                    .isTrue();
        }
    }

    private static <T> void roundTrip(Semiring<T> s, T x) {
        String text = s.format(x);
        T back = s.parse(text);
        if (!back.equals(x) || back.hashCode() != x.hashCode()) {
            fail("%s: parse(format(x)) != x for x = %s (parsed back as %s)", s.name(), text, s.format(back));
        }
    }

    @SafeVarargs
    private static <T> void expect(Semiring<T> s, String law, Object left, Object right, T... operands) {
        if (!left.equals(right)) {
            StringBuilder values = new StringBuilder();
            char name = 'a';
            for (T x : operands) {
                values.append(values.length() == 0 ? "" : ", ")
                        .append(name++)
                        .append(" = ")
                        .append(s.format(x));
            }
            fail("%s violates %s with %s: %s != %s", s.name(), law, values, show(s, left), show(s, right));
        }
    }

    private static <T> String show(Semiring<T> s, Object value) {
        return s.payloadClass().isInstance(value) ? s.format(s.payloadClass().cast(value)) : String.valueOf(value);
    }

    static <T> void checkSerialization(Semiring<T> s, Random r) {
        Object copy = deserialize(serialize(s));
        assertThat(copy).isEqualTo(s);
        if (!(s instanceof CovarianceAlgebra || s instanceof ProductSemiring || s instanceof ProductRing)) {
            assertThat(copy).as("%s resolves to its INSTANCE", s.name()).isSameAs(s);
        }
        for (int i = 0; i < 50; i++) {
            T x = RandomPayloads.random(s, r);
            Object back = deserialize(serialize(x));
            assertThat(back).as("%s payload %s", s.name(), s.format(x)).isEqualTo(x);
            assertThat(back.hashCode()).isEqualTo(x.hashCode());
        }
    }

    private static byte[] serialize(Object o) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(o);
        } catch (IOException e) {
            throw new AssertionError("cannot serialize " + o, e);
        }
        return bytes.toByteArray();
    }

    private static Object deserialize(byte[] bytes) {
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes))) {
            return in.readObject();
        } catch (IOException | ClassNotFoundException e) {
            throw new AssertionError("cannot deserialize", e);
        }
    }
}
