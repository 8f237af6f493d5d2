function play(ctx)
  for _ = 1, 1000 do ctx:checker_squares{ owner = "light" } end
end
