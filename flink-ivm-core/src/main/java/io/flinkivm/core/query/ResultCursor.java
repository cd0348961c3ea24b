package io.flinkivm.core.query;

import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apache.flink.annotation.PublicEvolving;

/**
 * A query result read in place, one tuple at a time: {@link #next} moves to the next result tuple,
 * {@link #tuple} and {@link #payload} read the current one. The same tuples, payloads and order as the
 * engine's iterator, without a {@link ResultTuple} per tuple: for a consumer that reads every tuple and
 * keeps only what it copies out (a sink that serializes each row). The result must not change while a
 * cursor is open (no insert between {@link #next} calls).
 *
 * @param <T> the payload type
 */
@PublicEvolving
public interface ResultCursor<T> {
    /** Moves to the next result tuple (the first, on the first call); false at the end. */
    boolean next();

    /** The current tuple: values of the free variables, in head order. */
    Tuple tuple();

    /**
     * The current tuple's payload, never zero. A cursor may recover it on each call (the product of
     * the root payloads): read it once per tuple.
     */
    T payload();

    /** The remaining tuples as an iterator of {@link ResultTuple}s (one object per tuple). */
    default Iterator<ResultTuple<T>> iterator() {
        ResultCursor<T> cursor = this;
        return new Iterator<>() {
            /** 0: not known whether there is a next tuple, 1: there is (the cursor is at it), 2: the end. */
            private int state;

            @Override
            public boolean hasNext() {
                if (state == 0) {
                    state = cursor.next() ? 1 : 2;
                }
                return state == 1;
            }

            @Override
            public ResultTuple<T> next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                state = 0;
                return new ResultTuple<>(cursor.tuple(), cursor.payload());
            }
        };
    }

    /** A cursor over the result tuples of {@code results}. */
    static <T> ResultCursor<T> over(Iterator<ResultTuple<T>> results) {
        return new ResultCursor<>() {
            private ResultTuple<T> current;

            @Override
            public boolean next() {
                current = results.hasNext() ? results.next() : null;
                return current != null;
            }

            @Override
            public Tuple tuple() {
                return current().tuple();
            }

            @Override
            public T payload() {
                return current().payload();
            }

            private ResultTuple<T> current() {
                if (current == null) {
                    throw new NoSuchElementException("the cursor is not at a result tuple");
                }
                return current;
            }
        };
    }
}
