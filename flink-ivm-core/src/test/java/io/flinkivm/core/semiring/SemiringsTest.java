package io.flinkivm.core.semiring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SemiringsTest {

    @Test
    void byNameKnowsEveryBuiltIn() {
        assertThat(Semirings.byName("natural")).isSameAs(NaturalSemiring.INSTANCE);
        assertThat(Semirings.byName("boolean")).isSameAs(BooleanSemiring.INSTANCE);
        assertThat(Semirings.byName("min-plus")).isSameAs(MinPlusSemiring.INSTANCE);
        assertThat(Semirings.byName("max-plus")).isSameAs(MaxPlusSemiring.INSTANCE);
        assertThat(Semirings.byName("viterbi")).isSameAs(ViterbiSemiring.INSTANCE);
        assertThat(Semirings.byName("provenance")).isSameAs(ProvenanceSemiring.INSTANCE);
        assertThat(Semirings.byName("covariance:3")).isEqualTo(CovarianceSemiring.of(3));
        assertThat(Semirings.byName(" Natural ")).isSameAs(NaturalSemiring.INSTANCE);
        assertThat(Semirings.byName("integer")).isSameAs(IntegerRing.INSTANCE);
        assertThat(Semirings.byName("covariance-ring:2")).isEqualTo(CovarianceRing.of(2));
    }

    @Test
    void everyListedNameResolvesToASemiringOfThatName() {
        for (String name : Semirings.names()) {
            String concrete = name.replace("<m>", "2");
            assertThat(Semirings.byName(concrete).name()).isEqualTo(concrete);
        }
        assertThat(Semirings.names())
                .containsExactly(
                        "natural",
                        "boolean",
                        "min-plus",
                        "max-plus",
                        "viterbi",
                        "provenance",
                        "covariance:<m>",
                        "integer",
                        "covariance-ring:<m>");
    }

    @Test
    void unknownNameListsTheKnownOnes() {
        assertThatThrownBy(() -> Semirings.byName("foo"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown semiring 'foo'; known: natural, boolean, min-plus, max-plus, viterbi,"
                        + " provenance, covariance:<m>, integer, covariance-ring:<m>");
    }

    @Test
    void covarianceNeedsAPositiveDimension() {
        for (String bad : new String[] {"covariance:", "covariance:0", "covariance:x", "covariance:-1"}) {
            assertThatThrownBy(() -> Semirings.byName(bad))
                    .as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("unknown semiring '" + bad + "'")
                    .hasMessageContaining("m ≥ 1");
        }
    }

    @Test
    void checkedAcceptsBuiltInsAndRejectsNonCommutativeSemirings() {
        assertThat(Semirings.checked(NaturalSemiring.INSTANCE)).isSameAs(NaturalSemiring.INSTANCE);
        assertThatThrownBy(() -> Semirings.checked(new MaxTimes(EnumSet.of(SemiringProperty.POSITIVE))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("semiring 'max-times' does not declare COMMUTATIVE");
        MaxTimes user = new MaxTimes(EnumSet.of(SemiringProperty.COMMUTATIVE));
        assertThat(Semirings.checked(user)).isSameAs(user);
    }

    @Test
    void ringIsDeclaredExactlyByTheRings() {
        assertThat(Semirings.checked(IntegerRing.INSTANCE)).isSameAs(IntegerRing.INSTANCE);
        assertThatThrownBy(() -> Semirings.checked(
                        new MaxTimes(EnumSet.of(SemiringProperty.COMMUTATIVE, SemiringProperty.RING))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("declares RING but does not implement Ring");
    }

    /** A user's own semiring: (N, max, ·, 0, 1). */
    private static final class MaxTimes implements Semiring<Long> {
        private static final long serialVersionUID = 1L;
        private final Set<SemiringProperty> properties;

        MaxTimes(Set<SemiringProperty> properties) {
            this.properties = properties;
        }

        @Override
        public String name() {
            return "max-times";
        }

        @Override
        public Long zero() {
            return 0L;
        }

        @Override
        public Long one() {
            return 1L;
        }

        @Override
        public Long plus(Long a, Long b) {
            return Math.max(a, b);
        }

        @Override
        public Long times(Long a, Long b) {
            return Math.multiplyExact(a, b);
        }

        @Override
        public Long parse(String text) {
            return Long.parseLong(text.trim());
        }

        @Override
        public String format(Long value) {
            return value.toString();
        }

        @Override
        public Class<Long> payloadClass() {
            return Long.class;
        }

        @Override
        public Set<SemiringProperty> properties() {
            return properties;
        }
    }
}
