import java.io.*;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.util.*;
import java.util.zip.GZIPInputStream;
import org.deidentifier.arx.*;
import org.deidentifier.arx.AttributeType.Hierarchy;
import org.deidentifier.arx.criteria.*;
import org.deidentifier.arx.metric.Metric;

/** ARX's side of bench/bench_search.py: one JVM that the Python bench starts once and drives
 *  case by case, so both sides run in the same run, interleaved (a case here, the same case
 *  there, round after round). Only ARXAnonymizer.anonymize is timed: the table and its
 *  hierarchies are read, and replicated, before the clock starts, as the Python bench reads
 *  them before calling search.
 *
 *  Commands, one a line on stdin, fields separated by tabs:
 *    load NAME TABLE HIERARCHY_PREFIX COPIES QI,QI,...
 *        reads TABLE (';'-separated, header first, .gz read through gzip), repeats its records
 *        COPIES times, and reads HIERARCHY_PREFIX + QI + ".csv" (or ".csv.gz") for each QI;
 *        answers "loaded RECORDS".
 *    run NAME K SUPPRESSION SENSITIVE L
 *        k-anonymity (plus distinct L-diversity of SENSITIVE unless SENSITIVE is "-"), at most
 *        SUPPRESSION (a share) of the records suppressed, Metric.createLossMetric(); answers
 *        "result THREAD_CPU_MS PROCESS_CPU_MS WALL_MS ARX_GETTIME_MS TRANSFORMATION SCORE"
 *        (the transformation as levels joined by ',', in the order the QIs were loaded).
 *    quit
 *  Other columns of the table are insensitive attributes.
 *
 *  Build against ARX compiled from its source (arx-deidentifier/arx, commit aacd487), with
 *  javac compiling only the ARX classes this harness reaches (-sourcepath):
 *    ARX_CLASSPATH=<the jars of ARX's lib/ant>:/usr/share/java/pdfbox2.jar:/usr/share/java/fontbox2.jar
 *    javac -cp "$ARX_CLASSPATH" -sourcepath <arx>/src/main:<stand-in> -d out bench/arx/BenchSearch.java
 *  then give bench/bench_search.py --arx-classpath "out:$ARX_CLASSPATH". The copy of ARX used
 *  here lacked the two largest jars of lib/ant: pdfbox-app (replaced by Debian's pdfbox 2,
 *  libpdfbox2-java) and hadoop-core, needed only to compile a classifier the search never
 *  runs: <stand-in> holds a one-interface org/apache/hadoop/io/Writable.java
 *  (write(DataOutput), readFields(DataInput)) for javac.
 *  Not part of the product or the tests. */
public class BenchSearch {

    static final class Table {
        List<String[]> rows;  // header first, then the records COPIES times
        String[] qis;
        Map<String, String[][]> hierarchies = new HashMap<>();
    }

    static final Map<String, Table> tables = new HashMap<>();

    static BufferedReader open(String path) throws IOException {
        InputStream in = new FileInputStream(path);
        if (path.endsWith(".gz")) in = new GZIPInputStream(in, 1 << 16);
        return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16);
    }

    static List<String[]> readRows(String path) throws IOException {
        List<String[]> rows = new ArrayList<>();
        try (BufferedReader reader = open(path)) {
            for (String line; (line = reader.readLine()) != null; )
                if (!line.isEmpty()) rows.add(line.split(";", -1));
        }
        return rows;
    }

    static String load(String[] f) throws IOException {
        Table table = new Table();
        List<String[]> rows = readRows(f[2]);
        int copies = Integer.parseInt(f[4]);
        table.rows = new ArrayList<>(1 + (rows.size() - 1) * copies);
        table.rows.add(rows.get(0));
        for (int c = 0; c < copies; c++) table.rows.addAll(rows.subList(1, rows.size()));
        table.qis = f[5].split(",");
        for (String qi : table.qis) {
            String path = f[3] + qi + ".csv";
            if (!new File(path).exists()) path += ".gz";
            table.hierarchies.put(qi, readRows(path).toArray(new String[0][]));
        }
        tables.put(f[1], table);
        return "loaded " + (table.rows.size() - 1);
    }

    static String run(String[] f) throws IOException {
        Table table = tables.get(f[1]);
        int k = Integer.parseInt(f[2]);
        double suppression = Double.parseDouble(f[3]);
        String sensitive = f[4];
        int l = Integer.parseInt(f[5]);
        // Not timed: the data and its definition, as the Python side's inputs are ready.
        Data data = Data.create(table.rows);
        Set<String> qis = new HashSet<>(Arrays.asList(table.qis));
        for (String column : table.rows.get(0)) {
            if (qis.contains(column))
                data.getDefinition().setAttributeType(column, Hierarchy.create(table.hierarchies.get(column)));
            else if (column.equals(sensitive))
                data.getDefinition().setAttributeType(column, AttributeType.SENSITIVE_ATTRIBUTE);
            else
                data.getDefinition().setAttributeType(column, AttributeType.INSENSITIVE_ATTRIBUTE);
        }
        ARXConfiguration config = ARXConfiguration.create();
        config.addPrivacyModel(new KAnonymity(k));
        if (!sensitive.equals("-")) config.addPrivacyModel(new DistinctLDiversity(sensitive, l));
        config.setSuppressionLimit(suppression);
        config.setQualityModel(Metric.createLossMetric());
        System.gc();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long t0 = threads.getCurrentThreadCpuTime(), p0 = os.getProcessCpuTime(), w0 = System.nanoTime();
        ARXResult result = new ARXAnonymizer().anonymize(data, config);
        double thread = (threads.getCurrentThreadCpuTime() - t0) / 1e6;
        double process = (os.getProcessCpuTime() - p0) / 1e6;
        double wall = (System.nanoTime() - w0) / 1e6;
        ARXLattice.ARXNode optimum = result.getGlobalOptimum();
        StringBuilder levels = new StringBuilder();
        for (String qi : table.qis) {
            if (levels.length() > 0) levels.append(',');
            levels.append(optimum == null ? -1 : optimum.getGeneralization(qi));
        }
        String score = optimum == null ? "none" : String.valueOf(optimum.getHighestScore());
        return String.format(Locale.ROOT, "result %.3f %.3f %.3f %d %s %s",
                             thread, process, wall, result.getTime(), levels, score);
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, "UTF-8");
        System.setOut(new PrintStream(OutputStream.nullOutputStream()));  // ARX's own prints
        for (String line; (line = in.readLine()) != null; ) {
            String[] f = line.split("\t", -1);
            try {
                if (f[0].equals("quit")) break;
                out.println(f[0].equals("load") ? load(f) : run(f));
            } catch (Exception e) {
                out.println("error " + e.toString().replace('\n', ' '));
            }
        }
    }
}
