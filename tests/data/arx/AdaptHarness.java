import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.deidentifier.arx.*;
import org.deidentifier.arx.ARXLattice.ARXNode;
import org.deidentifier.arx.AttributeType.Hierarchy;
import org.deidentifier.arx.criteria.*;
import org.deidentifier.arx.metric.Metric;

/** ARX optimizeIterative(output, gsFactor, maxIterations, adaptionFactor) on adult. */
public class AdaptHarness {
    static final String[] QI = {"sex","age","race","marital-status","education","native-country","workclass","occupation"};
    static final String DIR = "tests/data/adult/";

    static int hash(DataHandle output) {
        int hashcode = 23;
        for (int row = 0; row < output.getNumRows(); row++)
            for (int column = 0; column < output.getNumColumns(); column++)
                hashcode = (37 * hashcode) + output.getValue(row, column).hashCode();
        return hashcode;
    }

    static int outliers(DataHandle h) {
        int o = 0;
        for (int r = 0; r < h.getNumRows(); r++) o += h.isOutlier(r) ? 1 : 0;
        return o;
    }

    public static void main(String[] args) throws Exception {
        int k = Integer.parseInt(args[0]);
        double limit = Double.parseDouble(args[1]);
        double gs = Double.parseDouble(args[2]);
        int maxIterations = Integer.parseInt(args[3]);
        double adaption = Double.parseDouble(args[4]);
        Data data = Data.create(DIR + "adult.csv", StandardCharsets.UTF_8, ';');
        for (String q : QI) {
            data.getDefinition().setAttributeType(q, Hierarchy.create(DIR + "adult_hierarchy_" + q + ".csv", StandardCharsets.UTF_8, ';'));
        }
        data.getDefinition().setAttributeType("salary-class", AttributeType.INSENSITIVE_ATTRIBUTE);
        ARXConfiguration config = ARXConfiguration.create();
        config.addPrivacyModel(new KAnonymity(k));
        config.setSuppressionLimit(limit);
        config.setQualityModel(Metric.createLossMetric());
        ARXResult result = new ARXAnonymizer().anonymize(data, config);
        ARXNode opt = result.getGlobalOptimum();
        DataHandle output = result.getOutput();
        System.out.println("global levels " + Arrays.toString(opt.getTransformation()) + " loss " + opt.getHighestScore() + " outliers " + outliers(output) + " hash " + hash(output));
        ARXProcessStatistics stats = result.optimizeIterative(output, gs, maxIterations, adaption);
        for (int i = 0; i < stats.getNumberOfSteps(); i++) {
            ARXProcessStatistics.Step s = stats.getStep(i);
            System.out.println("step " + i + " levels " + Arrays.toString(s.getTransformation()) + " transformed " + s.getNumberOfRecordsTransformed() + " score " + s.getScore());
        }
        System.out.println("after outliers " + outliers(output) + " hash " + hash(output));
    }
}
