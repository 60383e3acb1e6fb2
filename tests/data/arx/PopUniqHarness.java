import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.deidentifier.arx.*;
import org.deidentifier.arx.ARXLattice.ARXNode;
import org.deidentifier.arx.ARXPopulationModel.Region;
import org.deidentifier.arx.AttributeType.Hierarchy;
import org.deidentifier.arx.criteria.*;
import org.deidentifier.arx.metric.Metric;
import org.deidentifier.arx.risk.RiskModelPopulationUniqueness.PopulationUniquenessModel;

/** ARX TestAnonymizationRiskBased cases 2-5: adult, all nine columns quasi-identifiers,
 *  PopulationUniqueness(0.0001, model, USA, solver 15 iterations per try), 4%. */
public class PopUniqHarness {
    static final String DIR = "tests/data/adult/";
    static final String[] COLS = {"sex","age","race","marital-status","education","native-country","workclass","occupation","salary-class"};

    static int outliers(DataHandle h) {
        int o = 0;
        for (int r = 0; r < h.getNumRows(); r++) o += h.isOutlier(r) ? 1 : 0;
        return o;
    }

    public static void main(String[] args) throws Exception {
        PopulationUniquenessModel model = PopulationUniquenessModel.valueOf(args[0]);
        boolean entropy = args[1].equals("entropy");
        int perTry = Integer.parseInt(args[2]);
        Data data = Data.create(DIR + "adult.csv", StandardCharsets.UTF_8, ';');
        for (String c : COLS) {
            data.getDefinition().setAttributeType(c, Hierarchy.create(DIR + "adult_hierarchy_" + c + ".csv", StandardCharsets.UTF_8, ';'));
        }
        ARXConfiguration config = ARXConfiguration.create(0.04d, entropy ? Metric.createPrecomputedEntropyMetric(0.1d) : Metric.createPrecomputedLossMetric(0.1d));
        config.addPrivacyModel(new PopulationUniqueness(0.0001d, model, ARXPopulationModel.create(Region.USA),
                ARXSolverConfiguration.create().setDeterministic(true).iterationsPerTry(perTry)));
        ARXResult result = new ARXAnonymizer().anonymize(data, config);
        ARXNode opt = result.getGlobalOptimum();
        DataHandle output = result.getOutput();
        System.out.println(args[0] + " " + args[1] + " perTry " + perTry + " levels " + Arrays.toString(opt.getTransformation()) + " score " + opt.getHighestScore() + " outliers " + outliers(output));
    }
}
