-- Nothing at all: with `--example run_costs`, the fixed cost of a run.
function play(ctx) end
