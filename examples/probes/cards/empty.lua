function play(ctx)
  for _ = 1, 1000 do  end
end
