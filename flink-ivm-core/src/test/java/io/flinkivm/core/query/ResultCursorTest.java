package io.flinkivm.core.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.Test;

/** A cursor over an iterator, and an iterator over a cursor: the same rows in the same order. */
class ResultCursorTest {

    private static final List<ResultTuple<Long>> ROWS = List.of(
            new ResultTuple<>(Tuple.of(1L, "a"), 3L),
            new ResultTuple<>(Tuple.of(2L, "b"), 5L),
            new ResultTuple<>(Tuple.of(3L, "c"), 7L));

    @Test
    void aCursorOverAnIteratorReadsItsRowsInOrder() {
        ResultCursor<Long> c = ResultCursor.over(ROWS.iterator());
        assertThatThrownBy(c::tuple)
                .isInstanceOf(NoSuchElementException.class)
                .hasMessageContaining("not at a result tuple");
        List<ResultTuple<Long>> read = new ArrayList<>();
        while (c.next()) {
            read.add(new ResultTuple<>(c.tuple(), c.payload()));
        }
        assertThat(read).isEqualTo(ROWS);
        assertThat(c.next()).isFalse();
        assertThatThrownBy(c::payload).isInstanceOf(NoSuchElementException.class);
    }

    @Test
    void anIteratorOverACursorKeepsTheIteratorContract() {
        Iterator<ResultTuple<Long>> it = ResultCursor.over(ROWS.iterator()).iterator();
        List<ResultTuple<Long>> read = new ArrayList<>();
        while (it.hasNext() && it.hasNext()) {
            read.add(it.next());
        }
        assertThat(read).isEqualTo(ROWS);
        assertThat(it.hasNext()).isFalse();
        assertThatThrownBy(it::next).isInstanceOf(NoSuchElementException.class);
    }

    @Test
    void anEmptyResultHasNoRow() {
        ResultCursor<Long> c = ResultCursor.over(List.<ResultTuple<Long>>of().iterator());
        assertThat(c.next()).isFalse();
        assertThat(c.iterator().hasNext()).isFalse();
    }
}
