function play(ctx)
  for _ = 1, 1000 do ctx:ask_square("p", {"c3"}) end
end
