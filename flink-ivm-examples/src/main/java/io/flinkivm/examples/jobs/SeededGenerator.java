package io.flinkivm.examples.jobs;

import io.flinkivm.flink.types.InputRecord;

/**
 * The generators of the examples: {@link GeneratorSettings#inserts()} inserts, insert i drawn from
 * {@code new Draws(seed, i)} and labelled with origin {@code "insert i"}. A subclass says only how
 * one insert is drawn.
 */
abstract class SeededGenerator<T> extends InsertGenerator<T> {
    private static final long serialVersionUID = 1L;
    final GeneratorSettings settings;

    SeededGenerator(GeneratorSettings settings) {
        this.settings = settings;
    }

    @Override
    public final long count() {
        return settings.inserts();
    }

    @Override
    public final InputRecord<T> record(long index) {
        return draw(new Draws(settings.seed(), index), index, "insert " + index);
    }

    /** Insert {@code index}, drawn from {@code r} in a fixed order, with origin {@code origin}. */
    abstract InputRecord<T> draw(Draws r, long index, String origin);
}
