package io.flinkivm.core.testing;

import io.flinkivm.core.semiring.Chain;
import io.flinkivm.core.semiring.ChainComponent;
import io.flinkivm.core.semiring.IntegerRing;
import io.flinkivm.core.semiring.LongComponent;
import io.flinkivm.core.semiring.Polynomial;
import io.flinkivm.core.semiring.ProductSemiring;
import io.flinkivm.core.semiring.ProvenanceSemiring;
import io.flinkivm.core.semiring.RandomPayloads;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.core.semiring.Semirings;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

/** The semirings property tests run over: the built-ins and the non-positive test semirings. */
public final class TestSemirings {

    /**
     * The built-ins, with covariance over two features, and {@link #CHAINS}: the SQL aggregates' product
     * with MIN of strings and MAX of dates.
     */
    public static final List<String> BUILT_INS = List.of(
            "natural", "boolean", "min-plus", "max-plus", "viterbi", "provenance", "covariance:2", "chains", "sums");

    /** The name of the product of a count, MIN over STRING, MAX over DATE and an integer sum. */
    public static final String CHAINS = "chains";

    /**
     * The name of the product of a count, an integer sum, a MIN and a MAX over DATE: every component a
     * long, so that records add its payloads in place ({@code Semiring.inPlaceSum}).
     */
    public static final String SUMS = "sums";

    /** The semirings that are not positive: a test semiring and the integers (a ring). */
    public static final List<String> NON_POSITIVE = List.of("four-bit", "integer");

    private TestSemirings() {}

    /** A built-in ({@link Semirings#byName}), {@code four-bit} or {@link #CHAINS}. */
    public static Semiring<?> byName(String name) {
        if (name.equals(SUMS)) {
            return ProductSemiring.of(List.of(
                    LongComponent.INTEGER, LongComponent.MIN, ChainComponent.max(Chain.of(Chain.Kind.DATE, "DATE"))));
        }
        if (name.equals(CHAINS)) {
            return ProductSemiring.of(List.of(
                    ChainComponent.min(Chain.of(Chain.Kind.STRING, "STRING")),
                    ChainComponent.max(Chain.of(Chain.Kind.DATE, "DATE")),
                    LongComponent.INTEGER));
        }
        return name.equals("four-bit") ? FourBitSemiring.INSTANCE : Semirings.byName(name);
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
        if (k instanceof IntegerRing) {
            // Small integers, so that sums cancel often.
            return r -> (T) Long.valueOf(r.nextInt(5) - 2);
        }
        return r -> RandomPayloads.random(k, r);
    }
}
