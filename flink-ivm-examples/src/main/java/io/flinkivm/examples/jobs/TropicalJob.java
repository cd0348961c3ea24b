package io.flinkivm.examples.jobs;

import io.flinkivm.core.query.ResultTuple;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.MinPlusSemiring;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.flink.types.InputRecord;
import java.util.Comparator;
import java.util.List;

/**
 * Ex. 10's shape over the tropical semiring (min, +): the cheapest way to fulfil an order from a
 * warehouse into a region. Costs are whole euros, so sums are exact in any order.
 */
public final class TropicalJob implements ExampleJob<Double> {

    public static final String QUERY = "Cheapest(Wh,Region) :- Pick(Wh,Bin,Shift,Picker), Pack(Wh,Bin,Shift,Packer),"
            + " Store(Wh,Bin,Rack), Toll(Region), Truck(Wh,Region,Carrier)";

    @Override
    public String name() {
        return "tropical";
    }

    @Override
    public String title() {
        return "the cheapest order fulfilment per warehouse and region, over min-plus";
    }

    @Override
    public List<String> story() {
        return List.of(
                "An order from warehouse Wh to region Region is picked and packed from one bin in one shift,",
                "pays that bin's storage, the region's toll and one truck. Each insert offers a price in euros:",
                "  Pick(Wh,Bin,Shift,Picker)   a picker's price      Pack(Wh,Bin,Shift,Packer)  a packer's price",
                "  Store(Wh,Bin,Rack)          storage of the bin    Toll(Region)                the road toll",
                "  Truck(Wh,Region,Carrier)    a carrier's price",
                "Over min-plus, a join adds prices and a projection keeps the cheapest, so the payload of",
                "Cheapest(w,r) is the lowest total; a cheaper offer lowers it, a dearer one changes nothing.",
                "Warehouses and regions follow --skew.");
    }

    @Override
    public String query() {
        return QUERY;
    }

    @Override
    public Semiring<Double> semiring() {
        return MinPlusSemiring.INSTANCE;
    }

    @Override
    public long defaultInserts() {
        return 100_000;
    }

    @Override
    public InsertGenerator<Double> generator(GeneratorSettings settings) {
        return new Generator(settings);
    }

    @Override
    public Comparator<ResultTuple<Double>> resultOrder() {
        Comparator<ResultTuple<Double>> byCost = Comparator.comparing(ResultTuple::payload);
        return byCost.thenComparing(ResultTuple::tuple, Rows.NATURAL_ORDER);
    }

    @Override
    public String resultOrderName() {
        return "cheapest first";
    }

    @Override
    public String formatPayload(Double payload) {
        return "€" + semiring().format(payload);
    }

    /** Pick and Pack 30% each, Store 15%, Toll 5%, Truck 20%; n/200 warehouses, n/400 regions, 10 bins, 3 shifts. */
    static final class Generator extends SeededGenerator<Double> {
        private static final long serialVersionUID = 1L;
        private static final String[] SHIFTS = {"early", "late", "night"};
        private final KeyDistribution wh;
        private final KeyDistribution region;
        private final KeyDistribution bin = new KeyDistribution(10, 0);
        private final KeyDistribution shift = new KeyDistribution(SHIFTS.length, 0);
        private final KeyDistribution staff = new KeyDistribution(40, 0);
        private final KeyDistribution racks = new KeyDistribution(20, 0);
        private final KeyDistribution carriers = new KeyDistribution(6, 0);

        Generator(GeneratorSettings s) {
            super(s);
            this.wh = new KeyDistribution(s.domain(200, 5), s.skew());
            this.region = new KeyDistribution(s.domain(400, 5), s.skew());
        }

        @Override
        InputRecord<Double> draw(Draws r, long index, String origin) {
            int which = r.nextInt(100);
            if (which < 30) {
                return InputRecord.insert(
                        "Pick",
                        Tuple.wrap(new Object[] {
                            r.key("wh", wh), r.key("bin", bin), SHIFTS[r.next(shift)], r.key("picker", staff)
                        }),
                        euros(r, 1, 9),
                        origin);
            }
            if (which < 60) {
                return InputRecord.insert(
                        "Pack",
                        Tuple.wrap(new Object[] {
                            r.key("wh", wh), r.key("bin", bin), SHIFTS[r.next(shift)], r.key("packer", staff)
                        }),
                        euros(r, 1, 9),
                        origin);
            }
            if (which < 75) {
                return InputRecord.insert(
                        "Store",
                        Tuple.wrap(new Object[] {r.key("wh", wh), r.key("bin", bin), r.key("rack", racks)}),
                        euros(r, 1, 20),
                        origin);
            }
            if (which < 80) {
                return InputRecord.insert(
                        "Toll", Tuple.wrap(new Object[] {r.key("region", region)}), euros(r, 0, 30), origin);
            }
            return InputRecord.insert(
                    "Truck",
                    Tuple.wrap(new Object[] {r.key("wh", wh), r.key("region", region), r.key("carrier", carriers)}),
                    euros(r, 20, 200),
                    origin);
        }

        private static Double euros(Draws r, int min, int max) {
            return (double) (min + r.nextInt(max - min + 1));
        }
    }
}
