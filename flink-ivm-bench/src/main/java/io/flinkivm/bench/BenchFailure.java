package io.flinkivm.bench;

/** A check of the bench failed (systems disagree on a result): the figures would compare different work. */
final class BenchFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BenchFailure(String message) {
        super(message);
    }
}
