package io.flinkivm.examples.tpch;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.query.Tuple;
import io.flinkivm.flink.types.InputRecord;
import io.trino.tpch.Customer;
import io.trino.tpch.CustomerGenerator;
import io.trino.tpch.LineItem;
import io.trino.tpch.LineItemGenerator;
import io.trino.tpch.Order;
import io.trino.tpch.OrderGenerator;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The insert stream over TPC-H rows, at scale factor 0.001 (150 customers, 1,500 orders). */
class TpchStreamTest {
    private static final double SF = 0.001;

    @Test
    void revenueIsExtendedPriceTimesOneMinusDiscountWithoutRounding() {
        int checked = 0;
        for (LineItem l : new LineItemGenerator(SF, 1, 1)) {
            BigDecimal price = BigDecimal.valueOf(l.getExtendedPriceInCents(), 2);
            BigDecimal discount = BigDecimal.valueOf(l.getDiscountPercent(), 2);
            BigDecimal exact = price.multiply(BigDecimal.ONE.subtract(discount));
            assertThat(BigDecimal.valueOf(TpchStream.revenue(l), TpchRevenue.REVENUE_SCALE))
                    .as("lineitem %d/%d", l.getOrderKey(), l.getLineNumber())
                    .isEqualByComparingTo(exact);
            checked++;
        }
        assertThat(checked).isGreaterThan(5_000);
    }

    @Test
    void rowsBecomeInsertsOfTheQuerysRelations() {
        Customer c = new CustomerGenerator(SF, 1, 1).iterator().next();
        Order o = new OrderGenerator(SF, 1, 1).iterator().next();
        LineItem l = new LineItemGenerator(SF, 1, 1).iterator().next();

        assertThat(TpchStream.insert(c))
                .isEqualTo(InputRecord.insert(
                        "Customer", Tuple.of(c.getCustomerKey(), c.getNationKey(), c.getMarketSegment()), 1L));
        assertThat(TpchStream.insert(o).relation()).isEqualTo("Orders");
        assertThat(TpchStream.insert(o).tuple()).isEqualTo(Tuple.of(1L, o.getCustomerKey(), "1996-01-02"));
        assertThat(TpchStream.insert(l))
                .isEqualTo(InputRecord.insert("Lineitem", Tuple.of(1L, 1L), TpchStream.revenue(l)));
    }

    @Test
    void streamHoldsEveryRowOnceShuffledBySeed() {
        List<InputRecord<Long>> inOrder = new ArrayList<>();
        new CustomerGenerator(SF, 1, 1).forEach(c -> inOrder.add(TpchStream.insert(c)));
        new OrderGenerator(SF, 1, 1).forEach(o -> inOrder.add(TpchStream.insert(o)));
        new LineItemGenerator(SF, 1, 1).forEach(l -> inOrder.add(TpchStream.insert(l)));
        List<InputRecord<Long>> shuffled = new ArrayList<>(inOrder);
        TpchStream.shuffle(shuffled, 7);

        List<InputRecord<Long>> stream = TpchStream.inserts(SF, 7);

        assertThat(stream).isEqualTo(shuffled).isNotEqualTo(inOrder).isNotEqualTo(TpchStream.inserts(SF, 8));
        assertThat(multiset(stream)).isEqualTo(multiset(inOrder));
        Map<String, Integer> counts = new HashMap<>();
        stream.forEach(r -> counts.merge(r.relation(), 1, Integer::sum));
        assertThat(counts)
                .containsEntry("Customer", 150)
                .containsEntry("Orders", 1_500)
                .containsEntry("Lineitem", inOrder.size() - 1_650);
    }

    private static Map<InputRecord<Long>, Integer> multiset(List<InputRecord<Long>> records) {
        Map<InputRecord<Long>, Integer> out = new HashMap<>();
        records.forEach(r -> out.merge(r, 1, Integer::sum));
        return out;
    }
}
