package io.flinkivm.core.semiring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ChainComponentTest {

    static Stream<Chain> chains() {
        return Stream.of(
                Chain.of(Chain.Kind.INTEGER, "INT"),
                Chain.decimal(12, 2, "DECIMAL(12, 2)"),
                Chain.of(Chain.Kind.DOUBLE, "DOUBLE"),
                Chain.of(Chain.Kind.BOOLEAN, "BOOLEAN"),
                Chain.of(Chain.Kind.DATE, "DATE"),
                Chain.of(Chain.Kind.TIME, "TIME(3)"),
                Chain.of(Chain.Kind.TIMESTAMP, "TIMESTAMP(6)"),
                Chain.of(Chain.Kind.STRING, "STRING"),
                Chain.decimal(30, 2, "DECIMAL(30, 2)"),
                Chain.of(Chain.Kind.TIMESTAMP_NANOS, "TIMESTAMP(9)"));
    }

    /**
     * The component's own operations on its elements, as a {@link Semiring}, so that the shared law checks
     * (associativity, commutativity, identities, annihilation, distributivity, and the declared idempotence
     * and positivity) and the text round trip run over it.
     */
    record Element(long value, Object object) {}

    static final class ComponentSemiring implements Semiring<Element> {
        private final ChainComponent c;

        ComponentSemiring(ChainComponent c) {
            this.c = c;
        }

        @Override
        public String name() {
            return c.label();
        }

        @Override
        public Element zero() {
            return new Element(c.zero(), null);
        }

        @Override
        public Element one() {
            return new Element(c.one(), null);
        }

        @Override
        public Element plus(Element a, Element b) {
            if (!c.holdsObjects()) {
                return new Element(c.plus(a.value(), b.value()), null);
            }
            return c.sumIsFirst(a.value(), a.object(), b.value(), b.object()) ? a : b;
        }

        @Override
        public Element times(Element a, Element b) {
            if (!c.holdsObjects()) {
                return new Element(c.times(a.value(), b.value()), null);
            }
            return c.productIsFirst(a.value(), a.object(), b.value(), b.object()) ? a : b;
        }

        @Override
        public Element parse(String text) {
            long[] v = new long[1];
            Object[] o = new Object[1];
            c.chain().parse(text, v, o, 0);
            return new Element(v[0], o[0]);
        }

        @Override
        public String format(Element value) {
            return c.chain().format(value.value(), value.object());
        }

        @Override
        public Class<Element> payloadClass() {
            return Element.class;
        }

        @Override
        public Set<SemiringProperty> properties() {
            return c.properties();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("chains")
    void minAndMaxAreCommutativeIdempotentPositiveSemirings(Chain chain) {
        for (ChainComponent c : List.of(ChainComponent.min(chain), ChainComponent.max(chain))) {
            assertThat(c.properties())
                    .containsExactlyInAnyOrder(
                            SemiringProperty.COMMUTATIVE, SemiringProperty.IDEMPOTENT, SemiringProperty.POSITIVE);
            ComponentSemiring s = new ComponentSemiring(c);
            Random r = new Random(Objects.hash(chain.name(), c.isMin()));
            checkLaws(s, c, r);
        }
    }

    private static void checkLaws(ComponentSemiring s, ChainComponent c, Random r) {
        SemiringLawsTest.checkLaws(s, () -> {
            int pick = r.nextInt(8);
            if (pick < 2) {
                return pick == 0 ? s.zero() : s.one();
            }
            long[] v = new long[1];
            Object[] o = new Object[1];
            RandomPayloads.chainValue(c.chain(), r, v, o, 0);
            return new Element(v[0], o[0]);
        });
    }

    @Test
    void minKeepsTheLeastAndAJoinTakesTheValueOverTheOne() {
        ChainComponent min = ChainComponent.min(Chain.of(Chain.Kind.DATE, "DATE"));
        assertThat(min.plus(19_000, 18_000)).isEqualTo(18_000);
        assertThat(min.times(19_000, min.one())).isEqualTo(19_000);
        assertThat(min.times(19_000, min.zero())).isEqualTo(min.zero());
        assertThat(min.plus(min.zero(), 5)).isEqualTo(5);
        ChainComponent max = ChainComponent.max(Chain.of(Chain.Kind.STRING, "STRING"));
        assertThat(max.sumIsFirst(Chain.VALUE, "b", Chain.VALUE, "a")).isTrue();
        assertThat(max.productIsFirst(Chain.VALUE, "b", max.one(), null)).isTrue();
        assertThat(max.productIsFirst(Chain.VALUE, "b", max.zero(), null)).isFalse();
        assertThat(max.label()).isEqualTo("max over STRING");
        assertThat(max.ringLabel()).isEqualTo("max-multiset over STRING");
    }

    @Test
    void elementsOutsideTheChainAreRejected() {
        ChainComponent strings = ChainComponent.min(Chain.of(Chain.Kind.STRING, "STRING"));
        assertThatThrownBy(() -> strings.check(Chain.VALUE, 3L))
                .isInstanceOf(PayloadFormatException.class)
                .hasMessageContaining("not a value of STRING");
        assertThatThrownBy(() -> strings.check(7, "a"))
                .isInstanceOf(PayloadFormatException.class)
                .hasMessageContaining("the tag of a value is 0");
        assertThatThrownBy(() -> strings.check(Chain.TOP, "a"))
                .isInstanceOf(PayloadFormatException.class)
                .hasMessageContaining("top has no object");
        ChainComponent booleans = ChainComponent.max(Chain.of(Chain.Kind.BOOLEAN, "BOOLEAN"));
        assertThatThrownBy(() -> booleans.check(2, null))
                .isInstanceOf(PayloadFormatException.class)
                .hasMessageContaining("2 is not a value of BOOLEAN");
    }
}
