// The reference side of cosim's HdrHistogram interop test, run by
// tests/interop/interop.sh with Debian's libhdrhistogram-java in single-file
// source mode (java -cp HdrHistogram.jar HlogInterop.java ...):
//   hiccup FILE     write a jHiccup-like log (jHiccup's histogram settings,
//                   hiccups recorded as recordValueWithExpectedInterval
//                   ladders); made tests/data/gclog/jhiccup.hlog
//   read FILE.hlog  decode every interval with HistogramLogReader and print
//                   its figures
//   total FILE.hlog add every interval together (as HistogramLogProcessor
//                   does) and print the sum's count and percentiles
//   write DIR       write DIR/java.hlog (HistogramLogWriter, as jHiccup
//                   does), DIR/java.hgrm and DIR/java_ms.hgrm
//                   (outputPercentileDistribution at ratios 1 and 10^6), then
//                   print the figures cosim must read from them
// Figures are in ns: count, max (getMaxValue), and getValueAtPercentile at
// 50, 90, 99, 99.9, 99.99 and 100 percent; the same lines hlog_tool prints.
import java.io.File;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import org.HdrHistogram.HistogramLogReader;
import org.HdrHistogram.HistogramLogWriter;

public class HlogInterop {
    static final double[] P = {50.0, 90.0, 99.0, 99.9, 99.99, 100.0};
    static final String[] NAME = {"p50", "p90", "p99", "p99.9", "p99.99", "p100"};
    static final long START_MS = 1772441700000L; // 2026-03-02T08:55:00Z

    static long splitmix(long[] s) {
        long z = (s[0] += 0x9E3779B97F4A7C15L);
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    static void fill(AbstractHistogram h, long seed, int n) {
        long[] s = {seed};
        for (int i = 0; i < n; i++) {
            long x = splitmix(s);
            long v = Long.remainderUnsigned(x >>> 16, 180000000L) + 50000L; // 50 us .. 180 ms
            h.recordValue(v);
        }
    }

    static String figures(AbstractHistogram h) {
        StringBuilder b = new StringBuilder();
        b.append("count=").append(h.getTotalCount()).append(" max=").append(h.getMaxValue());
        for (int i = 0; i < P.length; i++)
            b.append(' ').append(NAME[i]).append('=').append(h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(P[i]));
        return b.toString();
    }

    static void read(String path, long startMs) throws Exception {
        HistogramLogReader r = new HistogramLogReader(path);
        EncodableHistogram e;
        while ((e = r.nextIntervalHistogram()) != null) {
            AbstractHistogram h = (AbstractHistogram) e;
            String tag = h.getTag() == null ? "-" : h.getTag();
            System.out.println("tag=" + tag + " start_ms=" + (h.getStartTimeStamp() - startMs) + " length_ms="
                    + (h.getEndTimeStamp() - h.getStartTimeStamp()) + " " + figures(h));
        }
        r.close();
    }

    static void total(String path) throws Exception {
        HistogramLogReader r = new HistogramLogReader(path);
        Histogram sum = null;
        EncodableHistogram e;
        int n = 0;
        while ((e = r.nextIntervalHistogram()) != null) {
            AbstractHistogram h = (AbstractHistogram) e;
            if (sum == null)
                sum = new Histogram(h.getLowestDiscernibleValue(), h.getHighestTrackableValue(),
                        h.getNumberOfSignificantValueDigits());
            sum.add(h);
            n++;
        }
        r.close();
        StringBuilder b = new StringBuilder();
        b.append("intervals=").append(n).append(" count=").append(sum.getTotalCount());
        for (double p : new double[] {50.0, 90.0, 99.0, 99.9})
            b.append(' ').append(sum.getValueAtPercentile(p));
        System.out.println(b);
    }

    // What a .hgrm says at rank ceil(p n): the first printed row whose
    // TotalCount reaches it, its Value as printed (ratio, 3 decimals).
    static String hgrmFigures(Histogram h, double ratio) {
        List<long[]> rows = new ArrayList<>();
        for (HistogramIterationValue v : h.percentiles(5)) {
            String printed = String.format(Locale.US, "%.3f", v.getValueIteratedTo() / ratio);
            long ns = new BigDecimal(printed).multiply(BigDecimal.valueOf(ratio)).setScale(0, java.math.RoundingMode.HALF_UP).longValueExact();
            rows.add(new long[] {ns, v.getTotalCountToThisValue()});
        }
        long n = h.getTotalCount();
        StringBuilder b = new StringBuilder();
        b.append("count=").append(n).append(" max=").append(rows.get(rows.size() - 1)[0]);
        for (int i = 0; i < P.length; i++) {
            long rank = Math.max(1, (long) Math.ceil(Math.nextAfter(P[i], Double.NEGATIVE_INFINITY) * n / 100.0));
            long value = 0;
            for (long[] row : rows)
                if (row[1] >= rank) { value = row[0]; break; }
            b.append(' ').append(NAME[i]).append('=').append(value);
        }
        return b.toString();
    }

    static void write(String dir) throws Exception {
        String hlog = dir + "/java.hlog";
        HistogramLogWriter w = new HistogramLogWriter(hlog);
        w.outputComment("[Logged with cosim's interop test (HdrHistogram Java)]");
        w.outputLogFormatVersion();
        w.outputStartTime(START_MS);
        w.setBaseTime(START_MS);
        w.outputLegend();
        Histogram a = new Histogram(1, 3600L * 1000000000L, 3);
        fill(a, 7, 30000);
        Histogram hiccup = new Histogram(20000L, 30L * 24 * 3600 * 1000000000L, 2); // jHiccup's settings
        fill(hiccup, 8, 500);
        hiccup.recordValueWithExpectedInterval(45000000L, 1000000L);
        Histogram coarse = new Histogram(1000L, 3600L * 1000000000L, 1);
        coarse.setTag("d1");
        fill(coarse, 9, 4000);
        Histogram empty = new Histogram(1, 3600L * 1000000000L, 3);
        Histogram[] all = {a, hiccup, coarse, empty};
        for (int i = 0; i < all.length; i++) {
            all[i].setStartTimeStamp(START_MS + 1000L * i);
            all[i].setEndTimeStamp(START_MS + 1000L * (i + 1));
            w.outputIntervalHistogram(all[i]);
        }
        w.close();
        try (PrintStream ps = new PrintStream(new FileOutputStream(dir + "/java.hgrm"))) {
            a.outputPercentileDistribution(ps, 1.0);
        }
        try (PrintStream ps = new PrintStream(new FileOutputStream(dir + "/java_ms.hgrm"))) {
            a.outputPercentileDistribution(ps, 1000000.0);
        }
        read(hlog, START_MS);
        System.out.println("hgrm " + hgrmFigures(a, 1.0));
        System.out.println("hgrm_ms " + hgrmFigures(a, 1000000.0));
    }

    // Four 1 s intervals of a 1 ms-resolution hiccup meter: noise (1000
    // samples of 30 us, 10 of 70 us) in each; a 45 ms hiccup in the second;
    // 20 ms and 8 ms ones in the third.
    static void hiccup(String path) throws Exception {
        HistogramLogWriter w = new HistogramLogWriter(path);
        w.outputComment("[Logged with jHiccup-like settings by cosim's tests/interop/HlogInterop.java]");
        w.outputLogFormatVersion();
        w.outputStartTime(START_MS);
        w.setBaseTime(START_MS);
        w.outputLegend();
        long[][] hiccups = {{}, {45000000L}, {20000000L, 8000000L}, {}};
        for (int i = 0; i < hiccups.length; i++) {
            Histogram h = new Histogram(20000L, 30L * 24 * 3600 * 1000000000L, 2);
            h.recordValueWithCount(30000L, 1000);
            h.recordValueWithCount(70000L, 10);
            for (long v : hiccups[i])
                h.recordValueWithExpectedInterval(v, 1000000L);
            h.setStartTimeStamp(START_MS + 1000L * i);
            h.setEndTimeStamp(START_MS + 1000L * (i + 1));
            w.outputIntervalHistogram(h);
        }
        w.close();
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 2 && args[0].equals("hiccup")) {
            hiccup(args[1]);
            return;
        }
        if (args.length == 2 && args[0].equals("read"))
            read(args[1], 0L);
        else if (args.length == 2 && args[0].equals("total"))
            total(args[1]);
        else if (args.length == 2 && args[0].equals("write"))
            write(args[1]);
        else {
            System.err.println("usage: HlogInterop read FILE.hlog | total FILE.hlog | write DIR | hiccup FILE");
            System.exit(2);
        }
    }
}
