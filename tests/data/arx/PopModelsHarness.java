import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.*;
import org.deidentifier.arx.*;
import org.deidentifier.arx.AttributeType.Hierarchy;
import org.deidentifier.arx.criteria.*;
import org.deidentifier.arx.metric.Metric;
import org.deidentifier.arx.risk.*;
import org.deidentifier.arx.risk.RiskModelPopulationUniqueness.PopulationUniquenessModel;

public class PopModelsHarness {
    static final String DIR = "/work/wt-popmodels/tests/data/adult/";
    static final String[] QI8 = {"sex","age","race","marital-status","education","native-country","workclass","occupation"};

    static Data load() throws Exception {
        Data data = Data.create(DIR + "adult.csv", StandardCharsets.UTF_8, ';');
        for (String c : QI8) {
            data.getDefinition().setAttributeType(c, Hierarchy.create(DIR + "adult_hierarchy_" + c + ".csv", StandardCharsets.UTF_8, ';'));
        }
        data.getDefinition().setAttributeType("salary-class", AttributeType.INSENSITIVE_ATTRIBUTE);
        return data;
    }

    static void risk(DataHandle h, Set<String> qis, long N) {
        RiskModelPopulationUniqueness m = h.getRiskEstimator(ARXPopulationModel.create(N), qis).getPopulationBasedUniquenessRisk();
        System.out.println("RISK qis=" + qis + " N=" + N + " pitman=" + m.getFractionOfUniqueTuplesPitman()
            + " zayatz=" + m.getFractionOfUniqueTuplesZayatz() + " snb=" + m.getFractionOfUniqueTuplesSNB()
            + " dankar=" + m.getFractionOfUniqueTuplesDankar() + " model=" + m.getPopulationUniquenessModel()
            + " avg=" + h.getRiskEstimator(ARXPopulationModel.create(N), qis).getSampleBasedReidentificationRisk().getAverageRisk());
    }

    static void search(String label, PrivacyCriterion c, double supp) throws Exception {
        Data data = load();
        ARXConfiguration config = ARXConfiguration.create();
        config.addPrivacyModel(c);
        config.setSuppressionLimit(supp);
        config.setQualityModel(Metric.createDiscernabilityMetric(false));
        ARXAnonymizer anonymizer = new ARXAnonymizer();
        ARXResult result = anonymizer.anonymize(data, config);
        ARXLattice.ARXNode opt = result.getGlobalOptimum();
        if (opt == null) { System.out.println("SEARCH " + label + " none"); return; }
        DataHandle out = result.getOutput(opt, false);
        int suppressed = 0;
        for (int r = 0; r < out.getNumRows(); r++) if (out.isOutlier(r)) suppressed++;
        int anon = 0;
        for (ARXLattice.ARXNode[] level : result.getLattice().getLevels())
            for (ARXLattice.ARXNode n : level) if (n.getAnonymity() == ARXLattice.Anonymity.ANONYMOUS) anon++;
        System.out.println("SEARCH " + label + " levels=" + Arrays.toString(opt.getTransformation())
            + " attrs=" + Arrays.toString(opt.getQuasiIdentifyingAttributes())
            + " suppressed=" + suppressed + " score=" + opt.getHighestScore() + " anonymousNodes=" + anon
            + (c instanceof KMap ? " derivedK=" + ((KMap) result.getConfiguration().getPrivacyModel(KMap.class)).getDerivedK() : ""));
    }

    public static void main(String[] a) throws Exception {
        Data data = load();
        DataHandle h = data.getHandle();
        Set<String> q8 = new HashSet<>(Arrays.asList(QI8));
        Set<String> q4 = new HashSet<>(Arrays.asList("sex","age","race","marital-status"));
        for (long N : new long[]{100_000_000L, 200_000L, 40_000L}) { risk(h, q8, N); risk(h, q4, N); }
        search("pu-dankar-0.01-100M-5%", new PopulationUniqueness(0.01, PopulationUniquenessModel.DANKAR, ARXPopulationModel.create(100_000_000L)), 0.05);
        search("pu-pitman-0.001-100M-5%", new PopulationUniqueness(0.001, PopulationUniquenessModel.PITMAN, ARXPopulationModel.create(100_000_000L)), 0.05);
        search("pu-zayatz-0.01-200k-1%", new PopulationUniqueness(0.01, PopulationUniquenessModel.ZAYATZ, ARXPopulationModel.create(200_000L)), 0.01);
        search("avg-0.05-2%", new AverageReidentificationRisk(0.05), 0.02);
        search("avg-0.1-0%", new AverageReidentificationRisk(0.1), 0.0);
        search("kmap-5-0.01-zpois-300k-1%", new KMap(5, 0.01, ARXPopulationModel.create(300_000L), KMap.CellSizeEstimator.ZERO_TRUNCATED_POISSON), 0.01);
        search("kmap-10-0.05-pois-100k-1%", new KMap(10, 0.05, ARXPopulationModel.create(100_000L), KMap.CellSizeEstimator.POISSON), 0.01);
    }
}
