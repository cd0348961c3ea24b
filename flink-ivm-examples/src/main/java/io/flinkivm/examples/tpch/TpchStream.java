package io.flinkivm.examples.tpch;

import io.flinkivm.core.query.Tuple;
import io.flinkivm.flink.types.InputRecord;
import io.trino.tpch.Customer;
import io.trino.tpch.CustomerGenerator;
import io.trino.tpch.GenerateUtils;
import io.trino.tpch.LineItem;
import io.trino.tpch.LineItemGenerator;
import io.trino.tpch.Order;
import io.trino.tpch.OrderGenerator;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * TPC-H customer, orders and lineitem rows (from {@code io.trino.tpch}, deterministic for a scale
 * factor) as one stream of natural-number inserts for {@link TpchRevenue}:
 * <ul>
 *   <li>{@code Customer(custkey, nationkey, mktsegment)}, payload 1;</li>
 *   <li>{@code Orders(orderkey, custkey, orderdate)}, payload 1, the date as {@code yyyy-mm-dd};</li>
 *   <li>{@code Lineitem(orderkey, linenumber)}, payload {@link #revenue(LineItem)}.</li>
 * </ul>
 * Keys and line numbers are {@link Long}s, the segment and the date {@link String}s.
 */
public final class TpchStream {
    public static final String CUSTOMER = "Customer";
    public static final String ORDERS = "Orders";
    public static final String LINEITEM = "Lineitem";

    private TpchStream() {}

    /**
     * The revenue of a lineitem, {@code l_extendedprice * (1 - l_discount)}, exactly, in units of
     * 1/10,000 of a currency unit: {@code extendedPriceInCents * (100 - discountPercent)}. Both
     * factors are integers (prices have two decimals, discounts are whole percents), so nothing is
     * rounded; divide by 10,000 for the currency amount.
     *
     * @throws ArithmeticException if the product overflows 64 bits (it cannot for TPC-H data)
     */
    public static long revenue(LineItem l) {
        return Math.multiplyExact(l.getExtendedPriceInCents(), 100 - l.getDiscountPercent());
    }

    public static InputRecord<Long> insert(Customer c) {
        return InputRecord.insert(CUSTOMER, Tuple.of(c.getCustomerKey(), c.getNationKey(), c.getMarketSegment()), 1L);
    }

    public static InputRecord<Long> insert(Order o) {
        return InputRecord.insert(
                ORDERS, Tuple.of(o.getOrderKey(), o.getCustomerKey(), GenerateUtils.formatDate(o.getOrderDate())), 1L);
    }

    public static InputRecord<Long> insert(LineItem l) {
        return InputRecord.insert(LINEITEM, Tuple.of(l.getOrderKey(), (long) l.getLineNumber()), revenue(l));
    }

    /**
     * Every customer, order and lineitem row at {@code scaleFactor} as an insert, interleaved by a
     * shuffle seeded with {@code seed} (so an order may arrive before its customer, a lineitem before
     * its order). The same arguments give the same list.
     */
    public static List<InputRecord<Long>> inserts(double scaleFactor, long seed) {
        List<InputRecord<Long>> out = new ArrayList<>();
        for (Customer c : new CustomerGenerator(scaleFactor, 1, 1)) {
            out.add(insert(c));
        }
        for (Order o : new OrderGenerator(scaleFactor, 1, 1)) {
            out.add(insert(o));
        }
        for (LineItem l : new LineItemGenerator(scaleFactor, 1, 1)) {
            out.add(insert(l));
        }
        shuffle(out, seed);
        return out;
    }

    /** The interleaving {@link #inserts(double, long)} applies: a Fisher–Yates shuffle seeded with {@code seed}. */
    public static void shuffle(List<InputRecord<Long>> inserts, long seed) {
        Collections.shuffle(inserts, new Random(seed));
    }
}
