package io.flinkivm.examples.jobs;

import io.flinkivm.core.query.ResultTuple;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Polynomial;
import io.flinkivm.core.semiring.ProvenanceSemiring;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.flink.types.InputRecord;
import java.util.ArrayList;
import java.util.List;

/**
 * Provenance polynomials N[X]: every insert is annotated with a fresh variable, its fact id, and a
 * result's payload says which facts produced it, and how (a sum of alternatives, each a product of facts).
 */
public final class ProvenanceJob implements ExampleJob<Polynomial> {

    public static final String QUERY = "Covered(Patient,Drug) :- Prescribed(Patient,Drug,Doctor),"
            + " Dispensed(Patient,Drug,Pharmacy), Insured(Patient,Plan)";
    private static final int EXPLAINED_FACTS = 6;

    @Override
    public String name() {
        return "provenance";
    }

    @Override
    public String title() {
        return "which facts explain each result: provenance polynomials over fact ids";
    }

    @Override
    public List<String> story() {
        return List.of(
                "A drug is covered for a patient if a doctor prescribed it, a pharmacy dispensed it and the",
                "patient is insured. Each insert's payload is a fresh variable, the fact's id: rx_i for the",
                "i-th insert if it is a Prescribed fact, disp_i for Dispensed, ins_i for Insured. The payload",
                "of Covered(p,d) is a polynomial over these ids: (rx_3 + rx_8)*disp_5*ins_1 says that p got d",
                "through prescription 3 or 8, dispensation 5 and insurance 1. Drugs follow --skew.");
    }

    @Override
    public String query() {
        return QUERY;
    }

    @Override
    public Semiring<Polynomial> semiring() {
        return ProvenanceSemiring.INSTANCE;
    }

    @Override
    public long defaultInserts() {
        return 50_000;
    }

    @Override
    public InsertGenerator<Polynomial> generator(GeneratorSettings settings) {
        return new Generator(settings);
    }

    /** Lists the facts behind the first variables of the row's polynomial. */
    @Override
    public List<String> explainRow(ResultTuple<Polynomial> row, InsertGenerator<Polynomial> generator) {
        List<String> lines = new ArrayList<>();
        int shown = 0;
        for (String v : row.payload().variables()) {
            if (shown++ == EXPLAINED_FACTS) {
                lines.add("... and " + (row.payload().variables().size() - EXPLAINED_FACTS) + " more facts");
                break;
            }
            long index = Long.parseLong(v.substring(v.lastIndexOf('_') + 1));
            InputRecord<Polynomial> fact = generator.record(index);
            lines.add(v + " is " + fact.relation() + fact.tuple());
        }
        return lines;
    }

    /** Prescribed and Dispensed 40% each, Insured 20%; n/10 patients, 50 drugs, 20 doctors, 10 pharmacies, 4 plans. */
    static final class Generator extends SeededGenerator<Polynomial> {
        private static final long serialVersionUID = 1L;
        private final KeyDistribution patient;
        private final KeyDistribution drug;
        private final KeyDistribution doctor = new KeyDistribution(20, 0);
        private final KeyDistribution pharmacy = new KeyDistribution(10, 0);
        private final KeyDistribution plan = new KeyDistribution(4, 0);

        Generator(GeneratorSettings s) {
            super(s);
            // Skew on patients would multiply their alternatives into huge polynomials; drugs carry it.
            this.patient = new KeyDistribution(s.domain(10, 5), 0);
            this.drug = new KeyDistribution(50, s.skew());
        }

        @Override
        InputRecord<Polynomial> draw(Draws r, long index, String origin) {
            int which = r.nextInt(100);
            if (which < 40) {
                return InputRecord.insert(
                        "Prescribed",
                        Tuple.wrap(new Object[] {r.key("p", patient), r.key("drug", drug), r.key("dr", doctor)}),
                        Polynomial.variable("rx_" + index),
                        origin);
            }
            if (which < 80) {
                return InputRecord.insert(
                        "Dispensed",
                        Tuple.wrap(
                                new Object[] {r.key("p", patient), r.key("drug", drug), r.key("pharmacy", pharmacy)}),
                        Polynomial.variable("disp_" + index),
                        origin);
            }
            return InputRecord.insert(
                    "Insured",
                    Tuple.wrap(new Object[] {r.key("p", patient), r.key("plan", plan)}),
                    Polynomial.variable("ins_" + index),
                    origin);
        }
    }
}
