import java.nio.charset.StandardCharsets;
import java.util.*;
import org.deidentifier.arx.*;
import org.deidentifier.arx.ARXPopulationModel.Region;
import org.deidentifier.arx.risk.*;

/** Population uniqueness (Pitman, SNB) on adult's input classes with ARX's solver set to
 *  deterministic start values and a given number of iterations per try. */
public class SolverHarness {
    static final String DIR = "tests/data/adult/";
    public static void main(String[] a) throws Exception {
        Data data = Data.create(DIR + "adult.csv", StandardCharsets.UTF_8, ';');
        DataHandle h = data.getHandle();
        String[][] sets = {{"sex","age","race","marital-status"}, {"sex","age","race","marital-status","education","native-country","workclass","occupation"}, {"age","education"}, {"sex","race","marital-status","workclass"}};
        for (String[] set : sets) {
            Set<String> qis = new HashSet<>(Arrays.asList(set));
            for (int perTry : new int[]{1, 2, 3, 5, 15}) {
                ARXSolverConfiguration c = ARXSolverConfiguration.create().setDeterministic(true).iterationsPerTry(perTry);
                RiskModelPopulationUniqueness m = h.getRiskEstimator(ARXPopulationModel.create(Region.USA), qis, c).getPopulationBasedUniquenessRisk();
                RiskModelPopulationUniqueness m2 = h.getRiskEstimator(ARXPopulationModel.create(100_000L), qis, c).getPopulationBasedUniquenessRisk();
                System.out.println(String.join(",", set) + " perTry=" + perTry + " pitmanUSA=" + m.getFractionOfUniqueTuplesPitman() + " snb100k=" + m2.getFractionOfUniqueTuplesSNB() + " pitman100k=" + m2.getFractionOfUniqueTuplesPitman());
            }
        }
    }
}
