package dev.flinks3.bench.checkpoint.report;

import java.awt.Color;
import java.awt.Shape;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Path2D;
import java.awt.geom.Rectangle2D;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The colour of each contender in a report's charts, so that a plugin has the same colour in every chart and
 * in every report: a fixed colour for the plugins the benchmark knows ({@code ours}, {@code native},
 * {@code presto}, {@code hadoop}, also when the name holds one of them as a dash-separated word, as a cluster
 * run's label {@code presto-s3-benchmark} does), and for any other name a colour picked by a stable hash of
 * the name ({@link String#hashCode()} is specified, so the same in every JVM). Two contenders of one report
 * never share a colour: a name whose colour is taken gets the next free one. Rounds of one contender are told
 * apart by marker shape and a lighter shade of its colour. All colours are dark enough to read on white
 * (Okabe and Ito's colour-blind-safe set, without its yellow, plus darker extras).
 */
final class ContenderColours {

    private static final Map<String, Color> KNOWN = Map.of(
            "ours", new Color(0x00, 0x72, 0xB2), // blue
            "native", new Color(0xD5, 0x5E, 0x00), // vermillion
            "presto", new Color(0x00, 0x9E, 0x73), // bluish green
            "hadoop", new Color(0xCC, 0x79, 0xA7)); // reddish purple

    private static final List<Color> OTHERS = List.of(
            new Color(0xE6, 0x9F, 0x00), // orange
            new Color(0x56, 0xB4, 0xE9), // sky blue
            new Color(0x8C, 0x56, 0x4B), // brown
            new Color(0x6A, 0x3D, 0x9A), // purple
            new Color(0x4D, 0x4D, 0x4D), // dark grey
            new Color(0x7F, 0x7F, 0x00)); // olive

    /** How much lighter each further round is drawn, as a share of the way to white. */
    private static final double SHADE_PER_ROUND = 0.18;

    private static final double MAX_SHADE = 0.54;
    private static final double MARKER = 7;

    private final Map<String, Color> colours = new LinkedHashMap<>();

    /** Colours for the contenders of one report, in report order. */
    ContenderColours(List<String> contenders) {
        for (String name : contenders) {
            colours.computeIfAbsent(name, this::pick);
        }
    }

    /** The contender's colour; a name not given at construction gets one as well. */
    Color of(String contender) {
        return colours.computeIfAbsent(contender, this::pick);
    }

    /** The colour of a contender's {@code index}-th run (0-based): later runs lighter. */
    Color of(String contender, int index) {
        Color base = of(contender);
        double share = Math.min(MAX_SHADE, SHADE_PER_ROUND * index);
        return new Color(
                lighten(base.getRed(), share), lighten(base.getGreen(), share), lighten(base.getBlue(), share));
    }

    /** The marker of a contender's {@code index}-th run (0-based): circle, square, triangle, diamond, ... */
    static Shape marker(int index) {
        double r = MARKER / 2;
        return switch (index % 4) {
            case 0 -> new Ellipse2D.Double(-r, -r, MARKER, MARKER);
            case 1 -> new Rectangle2D.Double(-r, -r, MARKER, MARKER);
            case 2 -> polygon(0, -r, r, r, -r, r);
            default -> polygon(0, -r, r, 0, 0, r, -r, 0);
        };
    }

    /** The mark of a failed checkpoint: a cross, larger than the markers of completed ones. */
    static Shape failedMarker() {
        double r = MARKER * 0.8;
        double w = r / 3;
        return polygon(
                -r, -r + w, -r + w, -r, 0, -w, r - w, -r, r, -r + w, w, 0, r, r - w, r - w, r, 0, w, -r + w, r, -r,
                r - w, -w, 0);
    }

    private Color pick(String name) {
        String key = name.toLowerCase(Locale.ROOT);
        Color known = KNOWN.get(key);
        if (known == null) {
            for (String word : key.split("-")) {
                if (KNOWN.containsKey(word)) {
                    known = KNOWN.get(word);
                    break;
                }
            }
        }
        if (known != null && !colours.containsValue(known)) {
            return known;
        }
        int start = Math.floorMod(name.hashCode(), OTHERS.size());
        for (int i = 0; i < OTHERS.size(); i++) {
            Color candidate = OTHERS.get((start + i) % OTHERS.size());
            if (!colours.containsValue(candidate)) {
                return candidate;
            }
        }
        return OTHERS.get(start);
    }

    private static int lighten(int channel, double share) {
        return (int) Math.round(channel + (255 - channel) * share);
    }

    private static Shape polygon(double... xy) {
        Path2D.Double path = new Path2D.Double();
        path.moveTo(xy[0], xy[1]);
        for (int i = 2; i < xy.length; i += 2) {
            path.lineTo(xy[i], xy[i + 1]);
        }
        path.closePath();
        return path;
    }
}
