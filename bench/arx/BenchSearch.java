import java.io.File;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.util.*;
import org.deidentifier.arx.*;
import org.deidentifier.arx.AttributeType.Hierarchy;
import org.deidentifier.arx.criteria.*;
import org.deidentifier.arx.metric.Metric;

/** Times ARX on the three cases of bench/bench_search.py (adult, 8 QIs, ARX's hierarchies,
 *  Metric.createLossMetric()), all in one JVM, interleaved, after warm-up runs. Only
 *  ARXAnonymizer.anonymize is timed (data and hierarchies are read before, as the Python
 *  bench reads them before calling search).
 *  Prints, per case, ARX's optimum and the best and median of: this thread's CPU time, the
 *  JVM's process CPU time (JIT and GC threads included), wall time and ARXResult.getTime().
 *
 *  Build against ARX compiled from its source (org.deidentifier.arx, commit aacd487):
 *    javac -cp "$ARX_CLASSPATH" -d out bench/arx/BenchSearch.java
 *    java -cp "out:$ARX_CLASSPATH" BenchSearch tests/data/adult 5 9
 *  (arguments: the adult folder, warm-up rounds, timed rounds). Not part of the product or
 *  the tests: the figures it printed are written into bench/bench_search.py. */
public class BenchSearch {
    static final String[] QI = {"sex", "age", "race", "marital-status", "education",
                                "native-country", "workclass", "occupation"};

    static Data data;
    static ARXConfiguration config;

    /** Reads the data and hierarchies and sets the models (not timed). */
    static void prepare(String dir, int c) throws Exception {
        data = Data.create(dir + "/adult.csv", StandardCharsets.UTF_8, ';');
        for (String q : QI)
            data.getDefinition().setAttributeType(q, Hierarchy.create(
                dir + "/adult_hierarchy_" + q + ".csv", StandardCharsets.UTF_8, ';'));
        config = ARXConfiguration.create();
        config.addPrivacyModel(new KAnonymity(5));
        config.setSuppressionLimit(c == 0 ? 0d : 0.01d);
        if (c == 2) {
            data.getDefinition().setAttributeType("salary-class", AttributeType.SENSITIVE_ATTRIBUTE);
            config.addPrivacyModel(new DistinctLDiversity("salary-class", 2));
        } else {
            data.getDefinition().setAttributeType("salary-class", AttributeType.INSENSITIVE_ATTRIBUTE);
        }
        config.setQualityModel(Metric.createLossMetric());
    }

    public static void main(String[] a) throws Exception {
        String dir = a[0];
        int warmup = Integer.parseInt(a[1]), repeats = Integer.parseInt(a[2]);
        String[] names = {"k=5, 0% suppressed", "k=5, <=1% suppressed",
                          "k=5 + distinct 2-diversity, <=1%"};
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        for (int i = 0; i < warmup; i++) for (int c = 0; c < 3; c++) {
            prepare(dir, c);
            new ARXAnonymizer().anonymize(data, config);
        }
        double[][] thread = new double[3][repeats], proc = new double[3][repeats],
                   wall = new double[3][repeats], arx = new double[3][repeats];
        String[] optimum = new String[3];
        for (int r = 0; r < repeats; r++) {
            for (int c = 0; c < 3; c++) {
                prepare(dir, c);
                System.gc();
                long t0 = threads.getCurrentThreadCpuTime(), p0 = os.getProcessCpuTime(),
                     w0 = System.nanoTime();
                ARXResult result = new ARXAnonymizer().anonymize(data, config);
                thread[c][r] = (threads.getCurrentThreadCpuTime() - t0) / 1e6;
                proc[c][r] = (os.getProcessCpuTime() - p0) / 1e6;
                wall[c][r] = (System.nanoTime() - w0) / 1e6;
                arx[c][r] = result.getTime();
                optimum[c] = Arrays.toString(result.getGlobalOptimum().getTransformation())
                    + " " + result.getGlobalOptimum().getHighestScore();
            }
        }
        System.out.println("ARX " + warmup + " warm-up rounds, " + repeats + " timed rounds; ms: best / median");
        for (int c = 0; c < 3; c++) {
            System.out.printf("%s: optimum %s%n  thread CPU %.1f / %.1f, process CPU %.1f / %.1f, wall %.1f / %.1f, ARXResult.getTime %.0f / %.0f%n",
                names[c], optimum[c], min(thread[c]), med(thread[c]), min(proc[c]), med(proc[c]),
                min(wall[c]), med(wall[c]), min(arx[c]), med(arx[c]));
        }
    }
    static double min(double[] x) { double m = Double.MAX_VALUE; for (double v : x) m = Math.min(m, v); return m; }
    static double med(double[] x) { double[] y = x.clone(); Arrays.sort(y); return y[y.length / 2]; }
}
