-- wrk-histogram.lua: make wrk print what `cosim baseline wrk` and
-- `cosim compare` need to undo wrk's exit-time correction exactly
-- (docs/real-tools.md, "wrk's histogram, uncorrected").
--
--   wrk -t1 -c1 -d4s --latency -s "$(cosim baseline --wrk-script)" URL > base.txt
--
-- wrk 4.1.0 corrects its latency histogram after the run (src/wrk.c main:
-- stats_correct with the interval run time / (requests / connections)),
-- then calls done(summary, latency, requests) (src/script.c script_done).
-- latency(i), i = 1 .. #latency, is the i-th distinct value held (us) and
-- how many values it holds (src/script.c script_stats_call, src/stats.c
-- stats_value_at): the whole corrected histogram, 1 us per bin. With the
-- run time in us and the request count (summary), and the connection count
-- wrk prints itself ("N threads and C connections"), cosim recomputes the
-- interval as wrk did and takes the correction back out.
--
-- Output, after wrk's own (one line each, integers):
--   cosim-wrk-histogram 1
--   duration_us D
--   requests N
--   timeouts T
--   bins B
--   VALUE_US COUNT          (B lines, ascending)
--   end
function done(summary, latency, requests)
   local out = {}
   out[#out + 1] = "cosim-wrk-histogram 1"
   out[#out + 1] = string.format("duration_us %.0f", summary.duration)
   out[#out + 1] = string.format("requests %.0f", summary.requests)
   out[#out + 1] = string.format("timeouts %.0f", summary.errors.timeout)
   out[#out + 1] = string.format("bins %d", #latency)
   for i = 1, #latency do
      local v, c = latency(i)
      out[#out + 1] = string.format("%.0f %.0f", v, c)
   end
   out[#out + 1] = "end"
   io.write(table.concat(out, "\n"), "\n")
end
