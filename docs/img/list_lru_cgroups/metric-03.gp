# memcgsim plot: redraw with `gnuplot metric-03.gp` in this directory
set terminal svg size 800,500 dynamic noenhanced font 'sans,11'
set output 'metric-03.svg'
set title 'cpu_time_ns.spin against memcg.cgroups.0.count (mean, 95% CI)'
set xlabel 'memcg.cgroups.0.count'
set ylabel 'CPU time spin (s)'
set grid
set key outside right top
set logscale x 2
set yrange [0:*]
plot 'metric-03.dat' index 0 using 1:2:3 with yerrorlines title 'per-node', \
     'metric-03.dat' index 1 using 1:2:3 with yerrorlines title 'per-cgroup'
set terminal pngcairo size 800,500 noenhanced font 'sans,10'
set output 'metric-03.png'
replot
