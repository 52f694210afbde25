# sweep.gp: makespan against a swept parameter, one line per device (streamsim sweep).
#
# sim/sweep.c writes the data file and sets these variables with `gnuplot -e`:
#   term, output, width, height  'png' or 'svg', the file to write, its size
#   data         tab-separated: x makespan_ns value; one block per device, blocks
#                separated by two blank lines (gnuplot's `index`)
#   devices      the devices' names, blank-separated, in block order; ndevices
#   nvalues      values per device
#   param        the swept parameter's name
#   logx         1: the values form a geometric series, so x is logarithmic
#   categorical  1: the values are not plain numbers; x is their index, labelled
#   max_ns       the largest makespan
#   schedule     the schedule's file name
#   plot_title   '' to build the title below

set encoding utf8
if (term eq 'svg') {
    set terminal svg size width,height dynamic noenhanced font 'Sans,12' background rgb 'white'
} else {
    set terminal pngcairo size width,height noenhanced font 'Sans,12' background rgb 'white'
}
set output output
set datafile separator "\t"

array pal[8] = [0x4e79a7, 0xf28e2b, 0xe15759, 0x59a14f, 0xb07aa1, 0x76b7b2, 0x9c755f, 0xedc948]
array marks[8] = [7, 5, 9, 11, 13, 15, 4, 6]

# The unit that keeps the largest makespan between 1 and 1000.
top_ns = max_ns > 0 ? max_ns : 1
unit_ns = top_ns >= 1e9 ? 1e9 : (top_ns >= 1e6 ? 1e6 : (top_ns >= 1e3 ? 1e3 : 1))
unit = unit_ns == 1e9 ? 's' : (unit_ns == 1e6 ? 'ms' : (unit_ns == 1e3 ? 'µs' : 'ns'))

if (strlen(plot_title) == 0) {
    plot_title = sprintf('%s: makespan against %s', schedule, param)
}
set title plot_title font ',15'
set xlabel param
set ylabel sprintf('makespan (%s)', unit)
set yrange [0:*]
set grid xtics ytics lc rgb '#d0d0d0'
set border 3 lc rgb '#555555'
set tics nomirror out
set key outside right top reverse Left samplen 2.5 spacing 1.3 title 'device'
set autoscale xfix
set offsets graph 0.02, graph 0.02, graph 0.05, 0

# Geometric values: a log axis with a tick at every value. Few values, or
# values that are not numbers: a tick at each. Many evenly spaced ones:
# gnuplot's own ticks.
if (logx) { set logscale x 2 }
tic_each = logx || categorical || nvalues <= 16
point_size = nvalues > 24 ? 0.7 : 1.2
line_style = "with linespoints lw 2 pt marks[(i-1)%8+1] ps point_size lc rgb sprintf('#%06x', pal[(i-1)%8+1]) title word(devices, i)"

if (tic_each) {
    plot for [i=1:ndevices] data index (i-1) using 1:($2/unit_ns):xtic(3) @line_style
} else {
    plot for [i=1:ndevices] data index (i-1) using 1:($2/unit_ns) @line_style
}
