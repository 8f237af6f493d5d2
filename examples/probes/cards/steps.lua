function play(ctx)
  for _ = 1, 1000 do ctx:step_targets("c3", "orthogonal") end
end
