# gantt.gp: a timeline as a Gantt chart: a row per engine (and per stream), bars coloured by stream.
#
# sim/plot.c lays out the rows, writes the data files and sets these
# variables with `gnuplot -e` before running this script:
#   term, output, width, height  'png' or 'svg', the file to write, its size
#   bars     tab-separated rows: start_ns end_ns y_low y_high colour label
#            (colour: a stream's index, -1 for an op of no stream)
#   lanes    tab-separated rows: y_low y_high label shade (a labelled group of lanes)
#   ticks    tab-separated rows: x_ns y_low y_high colour (record/wait markers), or ''
#   arrows   tab-separated rows: from_ns from_y to_ns to_y (an op waited for another
#            stream's op: event, false dependency, legacy stream, deferred completion), or ''
#   path     tab-separated rows: start_ns end_ns y_low y_high (the critical path's ops,
#            outlined; `streamsim predict` gives it), or ''
#   ymax     the bottom of the last lane; y grows downwards, one unit a lane
#   plot_title                     '' to build the title below
#   schedule, device, makespan_ns, set1                 the timeline (above, with vs)
#   vs, set2, vs_schedule, vs_device, vs_makespan_ns    vs=1: the second one (below)
#   streams, stream_colours        legend names and their colours (blank-separated, <= 16)
#   nstreams                       how many streams are drawn (may exceed the legend)

set encoding utf8
if (term eq 'svg') {
    set terminal svg size width,height dynamic noenhanced font 'Sans,11' background rgb 'white'
} else {
    set terminal pngcairo size width,height noenhanced font 'Sans,11' background rgb 'white'
}
set output output
set datafile separator "\t"

# Stream colours: Tableau 10 and six darker ones that stay apart from them.
# Streams past the sixteenth reuse the palette in order.
array pal[16] = [0x4e79a7, 0xf28e2b, 0xe15759, 0x76b7b2, 0x59a14f, 0xedc948, \
                 0xb07aa1, 0xff9da7, 0x9c755f, 0x79706e, 0x1b4f8a, 0xa0522d, \
                 0x2e8b57, 0x7d3c98, 0xb8860b, 0x17becf]
colour(i) = i < 0 ? 0xa0a0a0 : pal[int(i) % 16 + 1]
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

set xrange [0:xspan]
set yrange [ymax:0]
set xlabel sprintf('time (%s)', unit)
set xtics nomirror out
set mxtics
lane_font = ymax > 60 ? ',7' : (ymax > 30 ? ',9' : ',11')
set ytics nomirror scale 0 font lane_font
set grid xtics mxtics lc rgb '#d8d8d8' lw 1, lc rgb '#ececec' lw 1
set grid noytics
set border 1 lc rgb '#555555'
set lmargin 26
set key outside right top vertical Left reverse samplen 1.5 spacing 1.15 title 'stream' noautotitle

# An op's number or label is written on its bar where it fits: the plot area
# is roughly the picture less the margins and the legend.
plot_px = width - 400.0
lane_px = (height - 140.0) / ymax
fits(d_ns, s) = lane_px >= 12 && d_ns / (xspan * unit_ns) * plot_px >= strlen(s) * 6.5 + 8
label_font = lane_px >= 22 ? ',10' : ',8'

set style fill solid 0.7 border
tick_plot = (ticks eq '') ? '' : \
    sprintf(", '%s' using ($1/unit_ns):2:(0):($3-$2):(colour($4)) with vectors nohead lw 2 lc rgb variable", ticks)
# Dependency arrows: dark, thin, drawn over the bars.
arrow_plot = (arrows eq '') ? '' : \
    sprintf(", '%s' using ($1/unit_ns):2:(($3-$1)/unit_ns):($4-$2) with vectors head filled size screen 0.007,25 lw 1.3 lc rgb '#303030'", arrows)
# The critical path: a dark outline around each of its ops, over the bars.
path_plot = (path eq '') ? '' : \
    sprintf(", '%s' using (($1+$2)/2/unit_ns):(($3+$4)/2):($1/unit_ns):($2/unit_ns):3:4 with boxxyerror fill empty border lc rgb '#000000' lw 2.5 lc rgb '#000000'", path)
more = nstreams > 16 ? nstreams - 16 : 0

plot lanes using (xspan/2):(($1+$2)/2):(0):(xspan):1:2:(shade($4)):ytic(3) \
         with boxxyerror fill solid 1.0 noborder lc rgb variable, \
     bars using (($1+$2)/2/unit_ns):(($3+$4)/2):($1/unit_ns):($2/unit_ns):3:4:(colour($5)) \
         with boxxyerror lc rgb variable \
     @tick_plot @arrow_plot @path_plot, \
     bars using (($1+$2)/2/unit_ns):(($3+$4)/2):(fits($2-$1, strcol(6)) ? strcol(6) : '') \
         with labels font label_font tc rgb '#1a1a1a', \
     for [i=1:words(streams)] keyentry with boxes fill solid 0.7 \
         lc rgb sprintf('#%06x', colour(word(stream_colours, i) + 0)) title word(streams, i), \
     for [i=1:(arrows ne '')] keyentry with vectors head filled lw 1.3 lc rgb '#303030' \
         title 'waited for', \
     for [i=1:(path ne '')] keyentry with boxes fill empty border lc rgb '#000000' lw 2.5 lc rgb '#000000' \
         title 'critical path', \
     for [i=1:(more > 0)] keyentry with boxes fill empty lc rgb 'white' \
         title sprintf('… %d more (colours repeat)', more)
