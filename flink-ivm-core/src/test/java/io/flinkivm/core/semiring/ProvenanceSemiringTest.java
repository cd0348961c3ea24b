package io.flinkivm.core.semiring;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProvenanceSemiringTest {

    private final ProvenanceSemiring p = ProvenanceSemiring.INSTANCE;

    @Test
    void annotatesAJoinAndAProjection() {
        // R(a) annotated r1, S(a, b1) s1, S(a, b2) s2: Q() = R(A), S(A, B) has payload r1*s1 + r1*s2.
        Polynomial r1 = p.parse("r1");
        Polynomial join = p.plus(p.times(r1, p.parse("s1")), p.times(r1, p.parse("s2")));
        assertThat(p.format(join)).isEqualTo("r1*s1 + r1*s2");
        assertThat(p.plus(join, join)).isEqualTo(p.parse("2*r1*s1 + 2*r1*s2"));
    }

    @Test
    void notIdempotent() {
        Polynomial x = Polynomial.variable("x");
        assertThat(p.plus(x, x)).isNotEqualTo(x);
        assertThat(p.properties()).containsExactlyInAnyOrder(SemiringProperty.COMMUTATIVE, SemiringProperty.POSITIVE);
        assertThat(p.isZero(p.zero())).isTrue();
        assertThat(p.one()).isEqualTo(Polynomial.constant(1));
    }
}
