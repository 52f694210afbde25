# gantt.gp: a timeline as a Gantt chart: a row per engine (and per stream), bars coloured by stream.
#
# sim/plot.c lays out the rows, writes the data files and sets these
# variables with `gnuplot -e` before running this script:
#   term, output, width, height  'png' or 'svg', the file to write, its size
#   bars     tab-separated rows: start_ns end_ns y_low y_high colour label fit_chars
#            (colour: a stream's place in natural name order, -1 for an op of no
#            stream; fit_chars: the longest label among bars of the row that look
#            as long, which sets whether and how large the label is drawn)
#   lanes    tab-separated rows: y_low y_high label shade (a labelled group of lanes)
#   ticks    tab-separated rows: x_ns y_low y_high colour (record/wait markers), or ''
#   arrows   tab-separated rows: from_ns from_y to_ns to_y (an op waited for another
#            stream's op: event, false dependency, legacy stream, deferred completion), or ''
#   path     tab-separated rows: start_ns end_ns y_low y_high (the critical path's ops,
#            outlined; `streamsim predict` gives it), or ''
#   ymax     the bottom of the last lane; y grows downwards, one unit a lane
#            (plot.c chooses the height so that a lane gets 22 pixels, unless --size)
#   plot_title                     '' to build the title below
#   schedule, device, makespan_ns, set1                 the timeline (above, with vs)
#   vs, set2, vs_schedule, vs_device, vs_makespan_ns    vs=1: the second one (below)
#   streams, stream_colours        legend names and their colours (blank-separated, <= 32)
#   nstreams                       how many streams are drawn (may exceed the legend)

set encoding utf8
if (term eq 'svg') {
    set terminal svg size width,height dynamic noenhanced font 'Sans,11' background rgb 'white'
} else {
    set terminal pngcairo size width,height noenhanced font 'Sans,11' background rgb 'white'
}
set output output
set datafile separator "\t"

# Stream colours: Tableau 10, six darker ones that stay apart from them, and
# sixteen lighter, duller or deeper ones: 32 before a colour repeats (plot.c's
# PLOT_PALETTE_SIZE; past it, each bar's label names its stream).
array pal[32] = [0x4e79a7, 0xf28e2b, 0xe15759, 0x76b7b2, 0x59a14f, 0xedc948, \
                 0xb07aa1, 0xff9da7, 0x9c755f, 0x79706e, 0x1b4f8a, 0xa0522d, \
                 0x2e8b57, 0x7d3c98, 0xb8860b, 0x17becf, \
                 0xa0cbe8, 0xffbe7d, 0x8cd17d, 0xd37295, 0xbcbd22, 0x6b6ecf, \
                 0x843c39, 0xd4a6c8, 0x637939, 0xe377c2, 0x00695c, 0xd7b5a6, \
                 0x9aa5b1, 0x6f4e37, 0xb9e3f0, 0xffd92f]
colour(i) = i < 0 ? 0xa0a0a0 : pal[int(i) % 32 + 1]
shade(s) = int(s) ? 0xb0b8c4d8 : 0xffffffff  # ARGB: translucent, so the grid shows through

# Time axis: the unit that keeps the makespan between 1 and 1000.
xmax_ns = makespan_ns
if (vs && vs_makespan_ns > xmax_ns) { xmax_ns = vs_makespan_ns }
if (xmax_ns <= 0) { xmax_ns = 1 }
unit_ns = xmax_ns >= 1e9 ? 1e9 : (xmax_ns >= 1e6 ? 1e6 : (xmax_ns >= 1e3 ? 1e3 : 1))
unit = unit_ns == 1e9 ? 's' : (unit_ns == 1e6 ? 'ms' : (unit_ns == 1e3 ? 'µs' : 'ns'))
xspan = xmax_ns * 1.02 / unit_ns
fmt(ns) = sprintf('%.4g %s', ns / unit_ns, unit)

if (strlen(plot_title) == 0) {
    if (vs) {
        plot_title = sprintf("%s on %s (%s, upper lanes): makespan %s\n%s on %s (%s, lower lanes): makespan %s", \
                             schedule, device, set1, fmt(makespan_ns), \
                             vs_schedule, vs_device, set2, fmt(vs_makespan_ns))
    } else {
        plot_title = sprintf('%s on %s: makespan %s', schedule, device, fmt(makespan_ns))
    }
}
set title plot_title font ',15'

# The frame in pixels, so that the plot area's size is known here: the lane
# titles on the left, the legend on the right, the title above and the time
# axis below (plot.c's PLOT_FRAME_PX covers top and bottom).
left_px = 250.0
right_px = 290.0
top_px = vs ? 90.0 : 60.0
bottom_px = 60.0
set lmargin at screen left_px / width
set rmargin at screen 1 - right_px / width
set tmargin at screen 1 - top_px / height
set bmargin at screen bottom_px / height
plot_px = width - left_px - right_px
lane_px = (height - top_px - bottom_px) / ymax

set xrange [0:xspan]
set yrange [ymax:0]
set xlabel sprintf('time (%s)', unit)
set xtics nomirror out
set mxtics
lane_font = lane_px >= 16 ? ',11' : (lane_px >= 11 ? ',9' : ',7')
set ytics nomirror scale 0 font lane_font
set grid xtics mxtics lc rgb '#d8d8d8' lw 1, lc rgb '#ececec' lw 1
set grid noytics
set border 1 lc rgb '#555555'
set key outside right top vertical Left reverse samplen 1.5 spacing 1.15 title 'stream' noautotitle

# A bar's label is drawn in the largest of three fonts it fits in (10, 8 or
# 7 points): as wide as fit_chars characters of about 0.85 of the font's
# size in pixels, with room at the ends, and as high as the bar (0.8 of a
# lane). fit_chars is the same for bars that look equally long, so they
# show their labels alike.
bar_px(d_ns) = d_ns / (xspan * unit_ns) * plot_px
fits(points, d_ns, n) = lane_px * 0.8 >= points * 1.4 && bar_px(d_ns) >= n * points * 0.85 + 4
label_points(d_ns, n) = fits(10, d_ns, n) ? 10 : (fits(8, d_ns, n) ? 8 : (fits(7, d_ns, n) ? 7 : 0))

set style fill solid 0.7 border
tick_plot = (ticks eq '') ? '' : \
    sprintf(", '%s' using ($1/unit_ns):2:(0):($3-$2):(colour($4)) with vectors nohead lw 2 lc rgb variable", ticks)
# Dependency arrows: dark, thin, drawn over the bars.
arrow_plot = (arrows eq '') ? '' : \
    sprintf(", '%s' using ($1/unit_ns):2:(($3-$1)/unit_ns):($4-$2) with vectors head filled size screen 0.007,25 lw 1.3 lc rgb '#303030'", arrows)
# The critical path: a dark outline around each of its ops, over the bars.
path_plot = (path eq '') ? '' : \
    sprintf(", '%s' using (($1+$2)/2/unit_ns):(($3+$4)/2):($1/unit_ns):($2/unit_ns):3:4 with boxxyerror fill empty border lc rgb '#000000' lw 2.5 lc rgb '#000000'", path)
more = nstreams > 32 ? nstreams - 32 : 0

plot lanes using (xspan/2):(($1+$2)/2):(0):(xspan):1:2:(shade($4)):ytic(3) \
         with boxxyerror fill solid 1.0 noborder lc rgb variable, \
     bars using (($1+$2)/2/unit_ns):(($3+$4)/2):($1/unit_ns):($2/unit_ns):3:4:(colour($5)) \
         with boxxyerror lc rgb variable \
     @tick_plot @arrow_plot @path_plot, \
     for [pt in '10 8 7'] bars \
         using (($1+$2)/2/unit_ns):(($3+$4)/2):(label_points($2-$1, $7) == pt + 0 ? strcol(6) : '') \
         with labels font ','.pt tc rgb '#1a1a1a', \
     for [i=1:words(streams)] keyentry with boxes fill solid 0.7 \
         lc rgb sprintf('#%06x', colour(word(stream_colours, i) + 0)) title word(streams, i), \
     for [i=1:(arrows ne '')] keyentry with vectors head filled lw 1.3 lc rgb '#303030' \
         title 'waited for', \
     for [i=1:(path ne '')] keyentry with boxes fill empty border lc rgb '#000000' lw 2.5 lc rgb '#000000' \
         title 'critical path', \
     for [i=1:(more > 0)] keyentry with boxes fill empty lc rgb 'white' \
         title sprintf('… %d more (labels name them)', more)
