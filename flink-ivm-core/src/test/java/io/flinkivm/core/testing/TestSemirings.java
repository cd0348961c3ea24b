package io.flinkivm.core.testing;

import io.flinkivm.core.semiring.Polynomial;
import io.flinkivm.core.semiring.ProvenanceSemiring;
import io.flinkivm.core.semiring.RandomPayloads;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.core.semiring.Semirings;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

/** The semirings property tests run over: the built-ins and the non-positive test semirings. */
public final class TestSemirings {

    /** The built-ins, with covariance over two features. */
    public static final List<String> BUILT_INS =
            List.of("natural", "boolean", "min-plus", "max-plus", "viterbi", "provenance", "covariance:2");

    /** The test semirings that are not positive. */
    public static final List<String> NON_POSITIVE = List.of("four-bit", "integers");

    private TestSemirings() {}

    /** A built-in ({@link Semirings#byName}), {@code four-bit} or {@code integers}. */
    public static Semiring<?> byName(String name) {
        switch (name) {
            case "four-bit":
                return FourBitSemiring.INSTANCE;
            case "integers":
                return IntegerRingSemiring.INSTANCE;
            default:
                return Semirings.byName(name);
        }
    }

    /**
     * Random payloads (zero included) for a semiring {@link #byName} knows: {@link RandomPayloads},
     * except that provenance polynomials are single terms, so that the sums of products over
     * self-joins stay at hundreds of terms rather than thousands.
     */
    @SuppressWarnings("unchecked")
    public static <T> Function<Random, T> payloads(Semiring<T> k) {
        if (k instanceof ProvenanceSemiring) {
            return r -> {
                while (true) {
                    T p = RandomPayloads.random(k, r);
                    if (((Polynomial) p).termCount() <= 1) {
                        return p;
                    }
                }
            };
        }
        if (k instanceof FourBitSemiring) {
            return r -> (T) FourBitSemiring.random(r);
        }
        if (k instanceof IntegerRingSemiring) {
            return r -> (T) IntegerRingSemiring.random(r);
        }
        return r -> RandomPayloads.random(k, r);
    }
}
